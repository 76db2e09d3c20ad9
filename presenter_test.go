package vurb_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/presenter"
	"github.com/vurb-go/vurb/toon"
)

// TestPresenterShapesEveryPlace: the invoice presenter applies wherever an
// Invoice is, without the action opting in: alone behind a pointer, in a
// page, in a slice, in a map of slices, as a field, behind an interface
// (a field of type any, and an action whose result is any).
func TestPresenterShapesEveryPlace(t *testing.T) {
	app := presentedBilling(5, 50)
	for _, c := range []struct{ name, args string }{
		{"billing_get", `{"invoice_id":"INV-0002"}`},
		{"billing_list", `{}`},
		{"billing_search", `{}`},
		{"billing_account", `{}`},
		{"billing_any", `{}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			res := callOK(t, app, c.name, c.args)
			noSecret(t, c.name, wireJSON(t, res))
			is.True(strings.Contains(textOf(res, 0), `"card_number":"[redacted]"`)) // the marker, where the value was
			is.True(!strings.Contains(textOf(res, 0), `"internal"`))                // omitted: no key at all
			is.True(strings.Contains(textOf(res, 0), `"email":"[redacted]"`))       // the tag on Customer
			p, ok := presenter.Read(res)
			is.True(ok)
			is.True(slices.Contains(p.Rules, ruleCents))                 // once each presenter met
			is.True(slices.Contains(p.Rules, "customers are companies")) // the nested presenter composes
		})
	}
}

// TestPresenterRulesOncePerResult: a result of many invoices carries each
// presenter's static rules once and each computed rule once, in a text
// block after the data; the structured content is the data alone.
func TestPresenterRulesOncePerResult(t *testing.T) {
	is := is.New(t)
	res := callOK(t, presentedBilling(9, 50), "billing_list", `{}`)
	is.Equal(len(res.Content), 2) // the data, then the presentation
	var page InvoicePage
	is.NoErr(json.Unmarshal(structured(t, res), &page))
	is.Equal(len(page.Invoices), 9)
	is.Equal(string(structured(t, res)), textOf(res, 0)) // JSON text and structured content: the same presented data
	is.True(!strings.Contains(string(structured(t, res)), "Rules"))

	block := textOf(res, 1)
	is.Equal(strings.Count(block, ruleCents), 1)
	is.Equal(strings.Count(block, "some invoices are overdue: say so first"), 1) // given by 3 invoices, written once
	p, _ := presenter.Read(res)
	want := []string{ruleCents, "customers are companies", "some invoices are overdue: say so first"}
	for _, inv := range invoices(9) {
		if inv.Status == "overdue" {
			want = append(want, "invoice "+inv.ID+" is overdue")
		}
	}
	is.Equal(p.Rules, want)
}

// TestPresenterLimit: a limit keeps the first N of every list of the type
// and says how many were left out, with the input fields that filter.
func TestPresenterLimit(t *testing.T) {
	is := is.New(t)
	app := presentedBilling(50, 20)
	res := callOK(t, app, "billing_list", `{}`)
	var page InvoicePage
	is.NoErr(json.Unmarshal(structured(t, res), &page))
	is.Equal(len(page.Invoices), 20)
	is.Equal(page.Invoices[19].ID, "INV-0020") // the first 20, in order
	is.Equal(page.Total, 50)
	p, _ := presenter.Read(res)
	is.Equal(p.LeftOut, []presenter.LeftOut{{Path: "invoices", Type: "Invoice", Shown: 20, Total: 50, Lists: 1,
		Narrow: []string{"status", "customer_id"}}}) // the fields tagged filter:"true", not page
	is.True(strings.Contains(textOf(res, 1), "invoices: 20 of 50 Invoice shown, 30 left out; narrow the query with status, customer_id"))

	// The whole result a slice; and lists nested in a map, counted together.
	p, _ = presenter.Read(callOK(t, app, "billing_search", `{}`))
	is.Equal(p.LeftOut[0].Path, "")
	is.Equal(p.LeftOut[0].Shown, 20)
	counts := map[string]int{}
	for _, inv := range invoices(50) {
		counts[inv.Status]++
	}
	shown := 0
	for _, n := range counts {
		shown += min(n, 10)
	}
	p, _ = presenter.Read(callOK(t, presentedBilling(50, 10), "billing_account", `{}`))
	is.Equal(p.LeftOut, []presenter.LeftOut{{Path: "by_status.*", Type: "Invoice", Shown: shown, Total: 50, Lists: len(counts),
		Narrow: []string{"count"}}}) // no filter tag: every optional field
}

// TestPresenterSuggestionsAsCalled: suggestions are written as the model
// must call them, in flat and grouped exposition, once each, and a
// suggestion of an action the app lacks is dropped.
func TestPresenterSuggestionsAsCalled(t *testing.T) {
	for _, c := range []struct {
		exp  vurb.Exposition
		tool string
		args string
		want presenter.NextCall
	}{
		{vurb.Flat, "billing_get", `{"invoice_id":"INV-0001"}`,
			presenter.NextCall{Tool: "billing_pay", Arguments: map[string]any{"invoice_id": "INV-0001"}, Reason: "invoice INV-0001 is open"}},
		{vurb.Grouped, "billing", `{"action":"get","invoice_id":"INV-0001"}`,
			presenter.NextCall{Tool: "billing", Arguments: map[string]any{"action": "pay", "invoice_id": "INV-0001"}, Reason: "invoice INV-0001 is open"}},
	} {
		t.Run(c.exp.String(), func(t *testing.T) {
			is := is.New(t)
			res := callOK(t, presentedBilling(3, 50, vurb.WithExposition(c.exp)), c.tool, c.args)
			p, ok := presenter.Read(res)
			is.True(ok)
			is.Equal(p.Next, []presenter.NextCall{c.want})
		})
	}

	is := is.New(t)
	app := billingApp(4, vurb.WithPresenters(presenter.New[Invoice]().Suggest(func(inv Invoice) []presenter.Suggestion {
		return []presenter.Suggestion{{Action: "billing.void"}, {Action: "billing.pay", Args: map[string]any{"invoice_id": "same"}}}
	})))
	p, _ := presenter.Read(callOK(t, app, "billing_search", `{}`))
	is.Equal(p.Next, []presenter.NextCall{{Tool: "billing_pay", Arguments: map[string]any{"invoice_id": "same"}}}) // once; billing.void is none of the app's
}

// TestPresenterRuleFreeResultHasNoBlock: a presented result whose
// presenters have nothing to say carries its data alone.
func TestPresenterRuleFreeResultHasNoBlock(t *testing.T) {
	is := is.New(t)
	app := billingApp(3, vurb.WithPresenters(presenter.New[Invoice]().Redact("card_number")))
	res := callOK(t, app, "billing_get", `{"invoice_id":"INV-0001"}`)
	is.Equal(len(res.Content), 1)
	_, ok := presenter.Read(res)
	is.True(!ok)
	noSecret(t, "card", strings.ReplaceAll(textOf(res, 0), "SECRET-internal", "")) // internal is not redacted here
}

// TestPresenterTOON: in TOON the text shows the same presented data as
// the structured content, key order kept, with the rules after it.
func TestPresenterTOON(t *testing.T) {
	is := is.New(t)
	type Row struct {
		ID     string `json:"id"`
		Amount int    `json:"amount"`
		Token  string `json:"token" redact:"true"`
	}
	type Rows struct {
		Rows []Row `json:"rows"`
	}
	app := vurb.New(vurb.WithResultFormat(vurb.TOONResults()), vurb.WithPresenters(presenter.New[Row]().Rules("amounts are in cents").Limit(20)))
	vurb.Query(app, "rows.list", func(context.Context, struct{}) (Rows, error) {
		var out Rows
		for i := range 30 {
			out.Rows = append(out.Rows, Row{ID: fmt.Sprint("r", i), Amount: i * 7, Token: fmt.Sprint("SECRET", i)})
		}
		return out, nil
	})
	res := callOK(t, app, "rows_list", `{}`)
	text := textOf(res, 0)
	is.True(strings.HasPrefix(text, "rows[20|]{id|amount|token}:")) // TOON: a table of the 20 rows kept
	back, err := toon.ToJSON([]byte(text))
	is.NoErr(err)
	is.Equal(string(back), string(structured(t, res)))
	noSecret(t, "TOON", wireJSON(t, res))
	p, _ := presenter.Read(res)
	is.Equal(p.LeftOut[0].Shown, 20)
}

// TestPresenterCustomFormat: a format of the user's own gets the presented
// data, decoded, never the handler's value.
func TestPresenterCustomFormat(t *testing.T) {
	is := is.New(t)
	var got any
	format := vurb.NewResultFormat("dump", func(v any) (string, error) {
		got = v
		return fmt.Sprintf("%v", v), nil
	})
	res := callOK(t, presentedBilling(3, 50, vurb.WithResultFormat(format)), "billing_get", `{"invoice_id":"INV-0001"}`)
	noSecret(t, "the custom format's text", textOf(res, 0))
	m, ok := got.(map[string]any)
	is.True(ok)
	is.Equal(m["card_number"], "[redacted]")
	is.Equal(m["amount_cents"], json.Number("1250"))
}

// TestPresenterMarker: a presenter's own marker, in the data and in the
// output schema.
func TestPresenterMarker(t *testing.T) {
	is := is.New(t)
	app := billingApp(2, vurb.WithPresenters(presenter.New[Invoice]().Redact("card_number").Marker("***")))
	res := callOK(t, app, "billing_get", `{"invoice_id":"INV-0001"}`)
	is.True(strings.Contains(textOf(res, 0), `"card_number":"***"`))
	is.True(strings.Contains(textOf(res, 0), `"email":"[redacted]"`)) // Customer's tag: its own (default) marker
	var out struct {
		Properties map[string]any `json:"properties"`
	}
	data, _ := json.Marshal(toolNamed(t, app.Tools(), "billing_get").OutputSchema)
	is.NoErr(json.Unmarshal(data, &out))
	is.Equal(out.Properties["card_number"], map[string]any{"const": "***", "description": "Card charged"})
}

// TestRedactTagWithoutPresenter: a redact tag needs no presenter.
func TestRedactTagWithoutPresenter(t *testing.T) {
	is := is.New(t)
	res := callOK(t, billingApp(2), "billing_account", `{}`)
	is.True(strings.Contains(textOf(res, 0), `"email":"[redacted]"`))
	is.Equal(len(res.Content), 1)
	is.True(!strings.Contains(wireJSON(t, res), "@SECRET"))
}

// TestNoPresenterNoChange: an app without presenters or redact tags sends
// what encoding/json writes and the output schema it always had.
func TestNoPresenterNoChange(t *testing.T) {
	is := is.New(t)
	type Plain struct {
		Name  string   `json:"name"`
		Items []string `json:"items"`
	}
	app := vurb.New()
	vurb.Query(app, "plain.get", func(_ context.Context, _ struct{}) (Plain, error) {
		return Plain{Name: "<a>", Items: []string{"x"}}, nil
	})
	res := callOK(t, app, "plain_get", `{}`)
	want, _ := json.Marshal(Plain{Name: "<a>", Items: []string{"x"}})
	is.Equal(textOf(res, 0), string(want))
	is.Equal(len(res.Content), 1)
}
