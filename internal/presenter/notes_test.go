package presenter

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb/internal/engine"
)

func TestCallFormArguments(t *testing.T) {
	for _, tc := range []struct {
		name string
		form CallForm
		args map[string]any
		want string
	}{
		{"flat, none", CallForm{Wire: "billing_pay", Action: "pay"}, nil, `{}`},
		{"flat", CallForm{Wire: "billing_pay", Action: "pay"}, map[string]any{"id": "INV-3"}, `{"id":"INV-3"}`},
		{"grouped, none", CallForm{Wire: "billing", Discriminator: "action", Action: "pay"}, nil, `{"action":"pay"}`},
		{"grouped, discriminator first", CallForm{Wire: "billing", Discriminator: "action", Action: "pay"},
			map[string]any{"id": "INV-3"}, `{"action":"pay","id":"INV-3"}`},
		{"grouped, a discriminator given is the form's", CallForm{Wire: "billing", Discriminator: "action", Action: "pay"},
			map[string]any{"action": "refund", "id": 1}, `{"action":"pay","id":1}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			got, err := tc.form.arguments(tc.args)
			is.NoErr(err)
			is.Equal(got, tc.want)
		})
	}
}

func TestOneLine(t *testing.T) {
	is := is.New(t)
	is.Equal(oneLine("plain rule"), "plain rule")
	is.Equal(oneLine("  two\nlines\t here "), "two lines here")
	is.Equal(oneLine(""), "")
}

// The block the notes write: every presenter's rules first, then those
// computed, each once; the cuts with the fields that narrow the query.
// presenter.Read reads this very text back (presenter/read_test.go).
func TestNotesText(t *testing.T) {
	is := is.New(t)
	p := New(reflect.TypeFor[struct{ A int }](), nil)
	p.AddRules([]string{"amounts are in cents"})
	var n Notes
	n.met(p)
	n.AddRules([]string{"invoice 42 is overdue", "amounts are in cents"})
	n.cut("customers[].invoices", reflect.TypeFor[struct{}](), 2, 5)
	pa := &Action{narrow: []string{"status"}}
	is.Equal(n.text(pa, &engine.Call{}), "Rules:\n"+
		"- amounts are in cents\n"+
		"- invoice 42 is overdue\n"+
		"Left out:\n"+
		"- customers[].invoices: 2 of 5 items shown, 3 left out; narrow the query with status")
}

func TestAppendScalarIsEncodingJSON(t *testing.T) {
	for _, v := range []any{true, "a<b>&\"\\\n\u2028é", 42, int8(-3), uint64(1 << 63), 1.5, 1e21, 1e-7, float32(0.1), 0.0} {
		is := is.New(t)
		want, err := json.Marshal(v)
		is.NoErr(err)
		got, ok := appendScalar(nil, reflect.ValueOf(v))
		is.True(ok)
		is.Equal(string(got), string(want))
	}
}
