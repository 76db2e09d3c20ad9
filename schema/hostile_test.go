package schema

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/matryer/is"
)

type hostileInput struct {
	Name string         `json:"name,omitempty"`
	Meta any            `json:"meta,omitempty"`
	Nums []int          `json:"nums,omitempty"`
	Tree map[string]any `json:"tree,omitempty"`
}

func nested(depth int) string {
	return strings.Repeat("[", depth) + strings.Repeat("]", depth)
}

func TestDecodeHostile(t *testing.T) {
	tenMB := `{"name":"` + strings.Repeat("a", 10<<20) + `"}`
	huge := `{"nums":[` + strings.TrimSuffix(strings.Repeat("1,", 400_000), ",") + `]}`
	tests := []struct {
		name   string
		in     string
		limits Limits
		want   string
	}{
		{"10 MB string", tenMB, Limits{}, fmt.Sprintf(DefaultMessages().TooLarge, len(tenMB), DefaultMaxBytes)},
		{"custom size limit", `{"name":"abcdef"}`, Limits{MaxBytes: 10}, `arguments are too large: 17 bytes, the limit is 10`},
		{"10,000 deep in a field", `{"meta":` + nested(10_000) + `}`, Limits{}, `arguments are nested too deeply: more than 64 levels`},
		{"10,000 deep at the top", nested(10_000), Limits{}, `arguments must be a JSON object, got array`},
		{"10,000 deep objects", `{"tree":` + strings.Repeat(`{"a":`, 10_000) + `1` + strings.Repeat(`}`, 10_000) + `}`, Limits{}, `arguments are nested too deeply: more than 64 levels`},
		{"deep but unterminated", `{"meta":` + strings.Repeat("[", 100_000), Limits{}, `arguments are nested too deeply: more than 64 levels`},
		{"exactly the limit", `{"meta":` + nested(63) + `}`, Limits{}, ``},
		{"one past the limit", `{"meta":` + nested(64) + `}`, Limits{}, `arguments are nested too deeply: more than 64 levels`},
		{"custom depth", `{"meta":[[1]]}`, Limits{MaxDepth: 2}, `arguments are nested too deeply: more than 2 levels`},
		{"deeper than the inline path", `{"meta":` + nested(199) + `}`, Limits{MaxDepth: 200}, ``},
		{"error deeper than the inline path", `{"tree":` + strings.Repeat(`{"a":`, 100) + `1e999` + strings.Repeat(`}`, 100) + `}`, Limits{MaxDepth: 200}, `tree` + strings.Repeat("[a]", 100) + `: 1e999 is out of range for float64`},
		{"huge array", huge, Limits{}, ``},
		{"NUL escaped is data", `{"name":"a\u0000b"}`, Limits{}, ``},
		{"raw NUL", "{\"name\":\"a\x00\"}", Limits{}, `arguments are not valid JSON: control character in a string (escape it) at offset 10`},
		{"only NUL", "\x00", Limits{}, `arguments are not valid JSON: invalid character '\x00' at offset 0`},
		{"prototype keys", `{"__proto__":{"admin":true},"constructor":{"prototype":1}}`, Limits{}, `unknown fields "__proto__", "constructor"; accepted: name, meta, nums, tree`},
		{"many unknown", `{"a1":1,"a2":1,"a3":1,"a4":1,"a5":1,"a6":1,"a7":1,"a8":1,"a9":1,"a10":1,"a11":1,"a12":1}`, Limits{}, `unknown fields "a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "a9", "a10" and 2 more; accepted: name, meta, nums, tree`},
		{"many map keys with a late duplicate", `{"tree":{` + manyKeys(40) + `,"k3":1}}`, Limits{}, `tree: duplicate field "k3"`},
		{"lone surrogate", `{"name":"\ud800"}`, Limits{}, `name: invalid UTF-8`},
		{"non-UTF-8 in any", "{\"meta\":[\"\xc3\x28\"]}", Limits{}, `meta[0]: invalid UTF-8`},
	}
	c := For[hostileInput]()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			var v hostileInput
			err := c.Decode([]byte(tt.in), &v, DecodeOptions{Limits: tt.limits})
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

func manyKeys(n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = fmt.Sprintf(`"k%d":1`, i)
	}
	return strings.Join(parts, ",")
}

func TestDecodeSkip(t *testing.T) {
	c := For[listProjects]()
	tests := []struct{ in, want string }{
		{`{"action":"list","workspace_id":"w"}`, ``},
		{`{"action":{"any":["shape"]},"workspace_id":"w"}`, ``},
		{`{"action":"list","action":"delete","workspace_id":"w"}`, `duplicate field "action"`},
		{`{"nested":{"action":1},"workspace_id":"w"}`, `unknown field "nested"; accepted: workspace_id, limit`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			is := is.New(t)
			var v listProjects
			err := c.Decode([]byte(tt.in), &v, DecodeOptions{Skip: "action"})
			if tt.want == "" {
				is.NoErr(err)
				is.Equal(v.WorkspaceID, "w")
				return
			}
			is.Equal(err.Error(), tt.want)
		})
	}
}

func TestDecodeWrongDestination(t *testing.T) {
	is := is.New(t)
	c := For[listProjects]()
	for _, dst := range []any{nil, listProjects{}, (*listProjects)(nil), new(hostileInput)} {
		err := c.Decode([]byte(`{}`), dst, DecodeOptions{})
		var e *Error
		is.True(err != nil)
		is.True(!errors.As(err, &e)) // a programmer error, not the model's
	}
}

func TestDecodeZeroesDestination(t *testing.T) {
	is := is.New(t)
	n := 5
	v := listProjects{WorkspaceID: "old", Limit: &n}
	is.NoErr(For[listProjects]().Decode([]byte(`{"workspace_id":"new"}`), &v, DecodeOptions{}))
	is.Equal(v, listProjects{WorkspaceID: "new"})
}

func TestLookup(t *testing.T) {
	tests := []struct {
		name, in, key string
		raw           string
		found         bool
		err           string
	}{
		{"found", `{"action":"list","x":[1,{"action":"no"}]}`, "action", `"list"`, true, ""},
		{"object value", `{"x":1, "action" : {"a":[1,2]} }`, "action", `{"a":[1,2]}`, true, ""},
		{"absent", `{"x":{"action":1}}`, "action", ``, false, ""},
		{"nil", ``, "action", ``, false, ""},
		{"blank", "  \n", "action", ``, false, ""},
		{"escaped key", `{"\u0061ction":"list"}`, "action", `"list"`, true, ""},
		{"null value", `{"action":null}`, "action", `null`, true, ""},
		{"duplicate", `{"action":"list","action":"delete"}`, "action", ``, false, `duplicate field "action"`},
		{"other duplicate", `{"a":1,"a":2,"action":"list"}`, "action", `"list"`, true, ""},
		{"array", `["action"]`, "action", ``, false, `arguments must be a JSON object, got array`},
		{"malformed", `{"action":"list"`, "action", ``, false, `arguments are not valid JSON: unexpected end of input at offset 16`},
		{"trailing", `{"action":"list"}]`, "action", ``, false, `arguments are not valid JSON: unexpected data after the top-level value at offset 17`},
		{"too deep", `{"action":"list","x":` + nested(100) + `}`, "action", ``, false, `arguments are nested too deeply: more than 64 levels`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			raw, found, err := Lookup([]byte(tt.in), tt.key, DecodeOptions{})
			is.Equal(string(raw), tt.raw)
			is.Equal(found, tt.found)
			if tt.err == "" {
				is.NoErr(err)
				return
			}
			var e *Error
			is.True(errors.As(err, &e))
			is.Equal(err.Error(), tt.err)
		})
	}
	t.Run("size", func(t *testing.T) {
		is := is.New(t)
		_, _, err := Lookup([]byte(`{"action":"list"}`), "action", DecodeOptions{Limits: Limits{MaxBytes: 4}})
		is.Equal(err.Error(), `arguments are too large: 17 bytes, the limit is 4`)
	})
}

func TestLookupAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under -race")
	}
	data := []byte(`{"action":"list","workspace_id":"w","limit":3}`)
	allocs := testing.AllocsPerRun(100, func() {
		if _, ok, err := Lookup(data, "action", DecodeOptions{Limits: Limits{}}); !ok || err != nil {
			t.Fatal(ok, err)
		}
	})
	if allocs != 0 {
		t.Fatalf("Lookup allocates %v times per call, want 0", allocs)
	}
}

// TestConcurrent builds and uses codecs from many goroutines at once; run
// with -race.
func TestConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 50; j++ {
				c := For[decodeInput]()
				var v decodeInput
				_ = c.Decode([]byte(`{"workspace_id":"w","limit":500}`), &v, DecodeOptions{})
				_ = c.Schema()
				_, _ = OutputSchema(c.Type())
				_ = Merge("action", nil, []Member{{Key: "a", Codec: c}, {Key: "b", Codec: For[hostileInput]()}}, nil)
			}
		}()
	}
	wg.Wait()
}
