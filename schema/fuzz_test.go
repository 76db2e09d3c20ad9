package schema

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// FuzzDecode proves Decode and Lookup never panic, always explain a refusal
// with an *Error, and only accept valid JSON.
func FuzzDecode(f *testing.F) {
	for _, seed := range []string{
		``, `{}`, `null`, `[]`, `"x"`, `1`, `true`,
		`{"workspace_id":"w","limit":5,"items":[{"name":"ab","qty":0}],"tags":{"x":1},"since":"2024-01-02T15:04:05Z","meta":{"a":[1,"x",null]},"pair":[1,2]}`,
		`{"Workspace_ID":"w","limt":5}`,
		`{"workspace_id":"w","limit":1,"limit":2}`,
		`{"workspace_id":"w","level":300,"count":-1,"ratio":1e39}`,
		`{"workspace_id":"w\xff"}`,
		"{\"workspace_id\":\"a\x00b\"}",
		`{"workspace_id":"w"} trailing`,
		`{"workspace_\u0069d":"\ud800\udc00\ud800"}`,
		`{"__proto__":{"admin":true},"constructor":{"prototype":{}}}`,
		`{"meta":` + strings.Repeat("[", 200) + strings.Repeat("]", 200) + `}`,
		`{"tree":` + strings.Repeat(`{"a":`, 100),
		`{"root":{"name":"a","children":[{"name":"b","children":[{}]}]}}`,
		`{"action":"list","action":"x"}`,
		`{"a":-0.0e+00,"b":-01,"c":1.,"d":.5,"e":"\u12"}`,
	} {
		f.Add([]byte(seed))
	}
	codecs := []*Codec{For[decodeInput](), For[treeInput](), For[hostileInput](), For[agreeAll](), For[tagCollections]()}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, c := range codecs {
			dst := reflect.New(c.Type()).Interface()
			err := c.Decode(data, dst, DecodeOptions{Limits: Limits{MaxBytes: 1 << 16, MaxDepth: 32}, Skip: "action"})
			if err == nil {
				if !isBlank(data) && !json.Valid(data) {
					t.Fatalf("accepted invalid JSON %q", data)
				}
				continue
			}
			var e *Error
			if !errors.As(err, &e) || len(e.Issues) == 0 {
				t.Fatalf("refusal without issues: %v", err)
			}
		}
		raw, found, err := Lookup(data, "action", DecodeOptions{Limits: Limits{MaxDepth: 32}})
		if err == nil && found && !json.Valid(raw) {
			t.Fatalf("Lookup returned invalid JSON %q", raw)
		}
	})
}
