package schema

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/matryer/is"
)

func TestRuleMessage(t *testing.T) {
	tests := []struct {
		tag, param string
		kind       reflect.Kind
		want       string
	}{
		{"required", "", reflect.String, "must not be empty"},
		{"min", "3", reflect.Int, "must be at least 3"},
		{"gte", "0.5", reflect.Float64, "must be at least 0.5"},
		{"min", "3", reflect.String, "must be at least 3 characters"},
		{"min", "1", reflect.Slice, "must contain at least 1 item(s)"},
		{"max", "9", reflect.Uint8, "must be at most 9"},
		{"lte", "9", reflect.String, "must be at most 9 characters"},
		{"max", "2", reflect.Map, "must contain at most 2 item(s)"},
		{"gt", "0", reflect.Int, "must be greater than 0"},
		{"gt", "2", reflect.String, "must be more than 2 characters"},
		{"gt", "2", reflect.Array, "must contain more than 2 item(s)"},
		{"lt", "5", reflect.Int, "must be less than 5"},
		{"lt", "5", reflect.String, "must be fewer than 5 characters"},
		{"lt", "5", reflect.Slice, "must contain fewer than 5 item(s)"},
		{"len", "4", reflect.String, "must be exactly 4 characters"},
		{"len", "2", reflect.Slice, "must contain exactly 2 item(s)"},
		{"len", "7", reflect.Int, "must be 7"},
		{"eq", "yes", reflect.String, `must be "yes"`},
		{"eq", "7", reflect.Int, "must be 7"},
		{"ne", "0", reflect.Int, "must not be 0"},
		{"oneof", "red 'light blue' green", reflect.String, "must be one of: red, light blue, green"},
		{"email", "", reflect.String, "must be a valid email address"},
		{"url", "", reflect.String, "must be a valid URL"},
		{"uuid4", "", reflect.String, "must be a valid version 4 UUID"},
		{"datetime", "2006-01-02", reflect.String, "must be a date/time formatted like 2006-01-02"},
		{"ip", "", reflect.String, "must be a valid IP address"},
		{"startswith", "v1.", reflect.String, `must start with "v1."`},
		{"email|url", "", reflect.String, "must be a valid email address or must be a valid URL"},
		{"min=3|eq=0", "", reflect.String, "must be at least 3 characters or must be \"0\""},
		{"required_if", "Kind a", reflect.String, "is required"},
		{"excluded_with", "Other", reflect.String, "must be absent here"},
		{"mycustom", "", reflect.String, `must satisfy the "mycustom" rule`},
		{"mycustom", "x", reflect.String, `must satisfy the "mycustom=x" rule`},
	}
	for _, tt := range tests {
		t.Run(tt.tag+"="+tt.param, func(t *testing.T) {
			is.New(t).Equal(ruleMessage(tt.tag, tt.param, tt.kind, builtin, nil), tt.want)
		})
	}
}

func TestErrorFormat(t *testing.T) {
	is := is.New(t)
	e := &Error{Issues: []Issue{{Message: "whole"}, {Path: "a[1].b", Message: "part"}}}
	is.Equal(e.Error(), "whole; a[1].b: part")
	is.Equal(e.Issues[1].String(), "a[1].b: part")
}

func TestTruncate(t *testing.T) {
	is := is.New(t)
	is.Equal(truncate("short", 64), "short")
	is.Equal(truncate(strings.Repeat("é", 40), 5), "éé…") // never splits a rune
}

// wideStruct has more fields than fit the scanner's inline bitsets.
func wideStruct() reflect.Type {
	var fields []reflect.StructField
	for i := 0; i < 70; i++ {
		tag := fmt.Sprintf(`json:"f%d,omitempty"`, i)
		if i == 3 || i == 68 {
			tag = fmt.Sprintf(`json:"f%d" validate:"required"`, i)
		}
		fields = append(fields, reflect.StructField{Name: fmt.Sprintf("F%d", i), Type: reflect.TypeFor[string](), Tag: reflect.StructTag(tag)})
	}
	return reflect.StructOf(fields)
}

func TestDecodeWideStruct(t *testing.T) {
	c := CodecFor(wideStruct())
	tests := []struct{ in, want string }{
		{`{"f3":"a","f68":"b","f69":"c"}`, ``},
		{`{"f3":"a"}`, `f68: is required`},
		{`{"f3":"a","f68":"b","f68":"c"}`, `duplicate field "f68"`},
		{`{}`, `f3: is required; f68: is required`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			is := is.New(t)
			err := c.Decode([]byte(tt.in), reflect.New(c.Type()).Interface(), DecodeOptions{})
			if tt.want == "" {
				is.NoErr(err)
				return
			}
			var e *Error
			is.True(errors.As(err, &e))
			is.Equal(err.Error(), tt.want)
		})
	}
}

func TestUnescapeKeys(t *testing.T) {
	tests := []struct{ raw, want string }{
		{`plain`, "plain"},
		{`a\"b\\c\/d`, `a"b\c/d`},
		{`\b\f\n\r\t`, "\b\f\n\r\t"},
		{`\u00e9\u00E9`, "éé"},
		{`\ud83d\ude00`, "😀"},
		{`\ud83dx`, "\uFFFDx"},
		{`\ude00`, "\uFFFD"},
	}
	for _, tt := range tests {
		is.New(t).Equal(string(unescape([]byte(tt.raw))), tt.want)
	}
}
