package schema_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb/schema"
)

type enumInput struct {
	Sort  string  `json:"sort,omitempty" enum:"name,created"`
	Order *string `json:"order,omitempty" enum:"asc,desc"`
	Level int     `json:"level,omitempty" enum:"1,2,3"`
}

// TestEnumTagIsEnforced: what the schema lists is what the server accepts.
func TestEnumTagIsEnforced(t *testing.T) {
	c := schema.For[enumInput]()
	var s struct {
		Properties map[string]struct {
			Enum []any `json:"enum"`
		} `json:"properties"`
	}
	is.New(t).NoErr(json.Unmarshal(c.Schema(), &s))
	is.New(t).Equal(s.Properties["order"].Enum, []any{"asc", "desc"}) // the schema lists what is enforced

	for _, tc := range []struct {
		args string
		want string // "" for success
	}{
		{`{"sort":"name","order":"desc","level":2}`, ""},
		{`{"sort":"n\u0061me"}`, ""}, // an escape is decoded before comparing
		{`{"sort":"size"}`, "sort: must be one of: name, created"},
		{`{"order":"ASC"}`, "order: must be one of: asc, desc"},
		{`{"level":4}`, "level: must be one of: 1, 2, 3"},
		{`{"sort":"size","level":0}`, "sort: must be one of: name, created; level: must be one of: 1, 2, 3"},
	} {
		var in enumInput
		err := c.Decode([]byte(tc.args), &in, schema.DecodeOptions{})
		if tc.want == "" {
			is.New(t).NoErr(err)
			continue
		}
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: got %v, want %s", tc.args, err, tc.want)
		}
	}
}

func TestConstraintTagsAreRefused(t *testing.T) {
	for _, tc := range []struct {
		typ  reflect.Type
		want string
	}{
		{reflect.TypeFor[struct {
			N int `json:"n" minimum:"1"`
		}](), `the minimum tag would show in the schema but is not enforced; use validate:"gte=N" (or min=N) instead`},
		{reflect.TypeFor[struct {
			S string `json:"s" pattern:"^a"`
		}](), "the pattern tag would show in the schema but is not enforced; use a check in the handler"},
		{reflect.TypeFor[struct {
			S string `json:"s" format:"email"`
		}](), `the format tag would show in the schema but is not enforced; use validate:"email"`},
		{reflect.TypeFor[struct {
			S string `json:"s" enum:"a, b"`
		}](), `enum value " b" has surrounding spaces, which the schema would keep; write enum:"a,b"`},
		{reflect.TypeFor[struct {
			F float64 `json:"f" enum:"1.5,2"`
		}](), `the enum tag is enforced on string and integer fields only; use validate:"oneof=…" instead`},
	} {
		func() {
			defer func() {
				msg, _ := recover().(string)
				if !strings.Contains(msg, tc.want) {
					t.Errorf("%s: panic %q, want …%s…", tc.typ, msg, tc.want)
				}
			}()
			schema.CodecFor(tc.typ)
		}()
	}
}

func TestSurrogateEscapes(t *testing.T) {
	type in struct {
		S string `json:"s"`
	}
	c := schema.For[in]()
	for _, tc := range []struct {
		arg string
		ok  bool
	}{
		{`"\ud83d\ude00"`, true}, // a pair: 😀
		{`"a\u00e9b"`, true},
		{`"\ud800"`, false},       // a lone high half
		{`"\ud800x"`, false},      // followed by a plain character
		{`"\ud800\n"`, false},     // followed by another escape
		{`"\ud800\u0041"`, false}, // followed by a non-surrogate \u
		{`"\udc00"`, false},       // a lone low half
		{`"\ud83d\ud83d\ude00"`, false},
	} {
		var v in
		err := c.Decode([]byte(`{"s":`+tc.arg+`}`), &v, schema.DecodeOptions{})
		if tc.ok != (err == nil) {
			t.Errorf("%s: got %v", tc.arg, err)
		}
		if !tc.ok && err != nil && err.Error() != "s: invalid UTF-8" {
			t.Errorf("%s: got %q, want %q", tc.arg, err, "s: invalid UTF-8")
		}
	}
}
