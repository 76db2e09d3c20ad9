package schema

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
)

type (
	decodeItem struct {
		Name string `json:"name" validate:"required,min=2"`
		Qty  *int   `json:"qty,omitempty" validate:"omitempty,gte=0"`
	}
	decodeInput struct {
		WorkspaceID string         `json:"workspace_id" validate:"required"`
		Limit       *int           `json:"limit,omitempty" validate:"omitempty,min=1,max=100"`
		Kind        string         `json:"kind,omitempty" validate:"omitempty,oneof=a b c"`
		Name        *string        `json:"name,omitempty" validate:"omitempty,min=3"`
		Email       string         `json:"email,omitempty" validate:"omitempty,email"`
		Level       *int8          `json:"level,omitempty"`
		Count       *uint          `json:"count,omitempty"`
		Ratio       *float32       `json:"ratio,omitempty"`
		Items       []decodeItem   `json:"items,omitempty" validate:"omitempty,max=5,dive"`
		Tags        map[string]int `json:"tags,omitempty" validate:"omitempty,dive,max=10"`
		Since       *time.Time     `json:"since,omitempty"`
		Meta        any            `json:"meta,omitempty"`
		Pair        [2]int         `json:"pair"`
		Enabled     *bool          `json:"enabled,omitempty"`
	}
)

func TestDecodeMessages(t *testing.T) {
	long := strings.Repeat("k", 100_000)
	tests := []struct {
		name, in, want string
	}{
		{"valid", `{"workspace_id":"w","limit":5,"items":[{"name":"ab","qty":0}],"tags":{"x":1},"since":"2024-01-02T15:04:05Z","meta":{"any":[1,"x",null]},"pair":[1,2],"enabled":false}`, ``},
		{"nil means {}", ``, `workspace_id: is required`},
		{"blank means {}", " \n\t ", `workspace_id: is required`},
		{"null is refused", `{"workspace_id":null,"limit":null}`, `limit: must not be null: leave the property out instead; workspace_id: is required`},
		{"empty required", `{"workspace_id":""}`, `workspace_id: must not be empty`},
		{"case-sensitive", `{"Workspace_ID":"w"}`, `unknown field "Workspace_ID" (did you mean "workspace_id"?); accepted: workspace_id, limit, kind, name, email, level, count, ratio, items, tags, since, meta, pair, enabled; workspace_id: is required`},
		{"typo", `{"workspace_id":"w","limt":5}`, `unknown field "limt" (did you mean "limit"?); accepted: workspace_id, limit, kind, name, email, level, count, ratio, items, tags, since, meta, pair, enabled`},
		{"nothing close", `{"workspace_id":"w","zzzzzz":5}`, `unknown field "zzzzzz"; accepted: workspace_id, limit, kind, name, email, level, count, ratio, items, tags, since, meta, pair, enabled`},
		{"several unknown", `{"workspace_id":"w","__proto__":{},"constructor":1,"lmit":2}`, `unknown fields "__proto__", "constructor", "lmit" (did you mean "limit"?); accepted: workspace_id, limit, kind, name, email, level, count, ratio, items, tags, since, meta, pair, enabled`},
		{"nested unknown", `{"workspace_id":"w","items":[{"name":"ab","nmae":"x"}]}`, `items[0]: unknown field "nmae" (did you mean "name"?); accepted: name, qty`},
		{"type", `{"workspace_id":"w","limit":"5"}`, `limit: expected integer, got string`},
		{"float for int", `{"workspace_id":"w","limit":2.5}`, `limit: must be an integer, got 2.5`},
		{"integral float for int", `{"workspace_id":"w","limit":7.0}`, ``},
		{"exponent for int", `{"workspace_id":"w","limit":1e2}`, ``},
		{"fractional exponent for int", `{"workspace_id":"w","limit":15e-1}`, `limit: must be an integer, got 15e-1`},
		{"object for string", `{"workspace_id":{"a":1}}`, `workspace_id: expected string, got object`},
		{"array for int", `{"workspace_id":"w","limit":[1]}`, `limit: expected integer, got array`},
		{"bool for string", `{"workspace_id":true}`, `workspace_id: expected string, got boolean`},
		{"int8 range", `{"workspace_id":"w","level":300}`, `level: 300 is out of range for int8 (-128 to 127)`},
		{"int8 low", `{"workspace_id":"w","level":-129}`, `level: -129 is out of range for int8 (-128 to 127)`},
		{"int8 edges", `{"workspace_id":"w","level":-128}`, ``},
		{"uint negative", `{"workspace_id":"w","count":-1}`, `count: -1 is out of range for uint (0 to 18446744073709551615)`},
		{"uint64 overflow", `{"workspace_id":"w","count":18446744073709551616}`, `count: 18446744073709551616 is out of range for uint (0 to 18446744073709551615)`},
		{"float32 range", `{"workspace_id":"w","ratio":1e39}`, `ratio: 1e39 is out of range for float32`},
		{"any number range", `{"workspace_id":"w","meta":1e400}`, `meta: 1e400 is out of range for float64`},
		{"at most", `{"workspace_id":"w","limit":1000}`, `limit: must be at most 100`},
		{"at least", `{"workspace_id":"w","limit":0}`, `limit: must be at least 1`},
		{"email", `{"workspace_id":"w","email":"nope"}`, `email: must be a valid email address`},
		{"oneof", `{"workspace_id":"w","kind":"d"}`, `kind: must be one of: a, b, c`},
		{"min length", `{"workspace_id":"w","name":"ab"}`, `name: must be at least 3 characters`},
		{"items rules", `{"workspace_id":"w","items":[{"name":"ab"},{"name":"ab"},{"name":"ab"},{"name":"x","qty":-1}]}`, `items[3].name: must be at least 2 characters; items[3].qty: must be at least 0`},
		{"items required", `{"workspace_id":"w","items":[{}]}`, `items[0].name: is required`},
		{"items count", `{"workspace_id":"w","items":[{"name":"ab"},{"name":"ab"},{"name":"ab"},{"name":"ab"},{"name":"ab"},{"name":"ab"}]}`, `items: must contain at most 5 item(s)`},
		{"map value", `{"workspace_id":"w","tags":{"big":11,"ok":1}}`, `tags[big]: must be at most 10`},
		{"map value type", `{"workspace_id":"w","tags":{"x":"1"}}`, `tags[x]: expected integer, got string`},
		{"map null value", `{"workspace_id":"w","tags":{"x":null}}`, `tags[x]: expected integer, got null`},
		{"array null element", `{"workspace_id":"w","items":[null]}`, `items[0]: expected object, got null`},
		{"go array overflow", `{"workspace_id":"w","pair":[1,2,3]}`, `pair: must contain at most 2 items`},
		{"time", `{"workspace_id":"w","since":"yesterday"}`, `since: must be a date-time in RFC 3339 format, like 2024-01-02T15:04:05Z`},
		{"every problem", `{"limit":0,"kind":"x","email":"@","level":999}`, `level: 999 is out of range for int8 (-128 to 127); workspace_id: is required; limit: must be at least 1; kind: must be one of: a, b, c; email: must be a valid email address`},
		{"duplicate", `{"workspace_id":"w","limit":1,"limit":2}`, `duplicate field "limit"`},
		{"duplicate hides the decoder's pick", `{"workspace_id":"w","limit":1,"limit":1000}`, `duplicate field "limit"`},
		{"case variant hides the decoder's pick", `{"workspace_id":"w","limit":5,"LIMIT":1000}`, `unknown field "LIMIT" (did you mean "limit"?); accepted: workspace_id, limit, kind, name, email, level, count, ratio, items, tags, since, meta, pair, enabled`},
		{"duplicate in map", `{"workspace_id":"w","tags":{"a":1,"\u0061":2}}`, `tags: duplicate field "a"`},
		{"duplicate in any", `{"workspace_id":"w","meta":{"a":1,"a":2}}`, `meta: duplicate field "a"`},
		{"escaped key matches", `{"workspace_\u0069d":"w"}`, ``},
		{"invalid UTF-8 value", "{\"workspace_id\":\"w\xff\"}", `workspace_id: invalid UTF-8`},
		{"invalid UTF-8 key", "{\"workspace_id\":\"w\",\"\xfe\":1}", `invalid UTF-8 in a field name`},
		{"array", `[1,2]`, `arguments must be a JSON object, got array`},
		{"null", `null`, `arguments must be a JSON object, got null`},
		{"string", `"hi"`, `arguments must be a JSON object, got string`},
		{"number", `42`, `arguments must be a JSON object, got number`},
		{"boolean", `true`, `arguments must be a JSON object, got boolean`},
		{"malformed", `{"workspace_id":"w",}`, `arguments are not valid JSON: invalid character '}' at offset 20`},
		{"truncated", `{"workspace_id":"w"`, `arguments are not valid JSON: unexpected end of input at offset 19`},
		{"bad literal", `{"workspace_id":"w","enabled":tru}`, `arguments are not valid JSON: invalid character '}' at offset 33`},
		{"bad number", `{"workspace_id":"w","limit":-}`, `arguments are not valid JSON: malformed number at offset 29`},
		{"leading zero", `{"workspace_id":"w","limit":01}`, `arguments are not valid JSON: invalid character '1' at offset 29`},
		{"bad escape", `{"workspace_id":"\x"}`, `arguments are not valid JSON: invalid escape sequence in a string at offset 18`},
		{"raw NUL", "{\"workspace_id\":\"a\x00b\"}", `arguments are not valid JSON: control character in a string (escape it) at offset 18`},
		{"NUL outside", "{\"workspace_id\":\"w\"}\x00", `arguments are not valid JSON: unexpected data after the top-level value at offset 20`},
		{"trailing", `{"workspace_id":"w"} {}`, `arguments are not valid JSON: unexpected data after the top-level value at offset 21`},
		{"key not string", `{workspace_id:"w"}`, `arguments are not valid JSON: invalid character 'w' at offset 1`},
		{"long key echoed short", `{"workspace_id":"w","` + long + `":1}`, `unknown field "` + strings.Repeat("k", 64) + `…"; accepted: workspace_id, limit, kind, name, email, level, count, ratio, items, tags, since, meta, pair, enabled`},
		{"long number echoed short", `{"workspace_id":"w","level":` + strings.Repeat("9", 100) + `}`, `level: ` + strings.Repeat("9", 64) + `… is out of range for int8 (-128 to 127)`},
	}
	c := For[decodeInput]()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			var v decodeInput
			err := c.Decode([]byte(tt.in), &v, DecodeOptions{})
			if tt.want == "" {
				is.NoErr(err)
				return
			}
			var e *Error
			is.True(errors.As(err, &e)) // bad input is an *Error
			is.Equal(err.Error(), tt.want)
		})
	}
}
