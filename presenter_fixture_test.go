package vurb_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/presenter"
)

// The billing fixture of the presenter tests: invoices with a card number
// the presenter redacts, customers whose email a tag redacts, and actions
// that return invoices alone, in pages, in slices, in maps, behind
// pointers and behind an interface.

type Customer struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Email string `json:"email" redact:"true"`
}

type Invoice struct {
	ID          string    `json:"id" description:"Invoice number"`
	AmountCents int       `json:"amount_cents"`
	Status      string    `json:"status"`
	CardNumber  string    `json:"card_number" description:"Card charged"`
	Internal    string    `json:"internal,omitempty"`
	Customer    *Customer `json:"customer,omitempty"`
}

type InvoicePage struct {
	Invoices []Invoice `json:"invoices"`
	Total    int       `json:"total"`
}

type ListInvoices struct {
	Status     *string `json:"status,omitempty" filter:"true" validate:"omitempty,oneof=open paid overdue" description:"Only invoices with this status"`
	CustomerID *string `json:"customer_id,omitempty" filter:"true" description:"Only this customer's invoices"`
	Page       *int    `json:"page,omitempty" description:"Page number"`
}

type InvoiceRef struct {
	InvoiceID string `json:"invoice_id" validate:"required"`
}

type CustomerRef struct {
	Count *int `json:"count,omitempty" description:"How many invoices"`
}

type Account struct {
	Owner    Customer             `json:"owner"`
	Latest   *Invoice             `json:"latest"`
	ByStatus map[string][]Invoice `json:"by_status"`
	Extra    any                  `json:"extra,omitempty"`
}

// invoices makes n invoices; every third is overdue, every other one open.
func invoices(n int) []Invoice {
	out := make([]Invoice, n)
	for i := range out {
		status := "paid"
		switch {
		case i%3 == 0:
			status = "overdue"
		case i%2 == 0:
			status = "open"
		}
		out[i] = Invoice{ID: fmt.Sprintf("INV-%04d", i+1), AmountCents: 1250 * (i + 1), Status: status,
			CardNumber: fmt.Sprintf("4111-SECRET-%04d", i), Internal: "SECRET-internal",
			Customer: &Customer{ID: fmt.Sprintf("C%d", i%4), Name: fmt.Sprintf("Customer %d", i%4), Email: fmt.Sprintf("c%d@SECRET.example", i)}}
	}
	return out
}

const ruleCents = "amount_cents is in cents: divide by 100 before showing it"

// invoicePresenter is the presenter the tests share: a static rule, a
// rule per overdue invoice, a suggestion per open or overdue one, the
// card redacted, the internal note omitted and at most limit per list.
func invoicePresenter(limit int) *presenter.Presenter[Invoice] {
	return presenter.New[Invoice]().
		Rules(ruleCents).
		RulesFor(func(inv Invoice) []string {
			if inv.Status == "overdue" {
				return []string{"some invoices are overdue: say so first", "invoice " + inv.ID + " is overdue"}
			}
			return nil
		}).
		Suggest(func(inv Invoice) []presenter.Suggestion {
			if inv.Status == "paid" {
				return nil
			}
			return []presenter.Suggestion{{Action: "billing.pay", Reason: "invoice " + inv.ID + " is open", Args: map[string]any{"invoice_id": inv.ID}}}
		}).
		Redact("card_number").
		Omit("internal").
		Limit(limit)
}

// billingApp declares the fixture's actions on a new app with opts.
func billingApp(rows int, opts ...vurb.Option) *vurb.App {
	app := vurb.New(append([]vurb.Option{vurb.WithLogger(slog.New(slog.DiscardHandler))}, opts...)...)
	all := invoices(rows)
	vurb.Query(app, "billing.list", func(_ context.Context, in ListInvoices) (InvoicePage, error) {
		return InvoicePage{Invoices: all, Total: len(all)}, nil
	}).Describe("List invoices")
	vurb.Query(app, "billing.search", func(context.Context, ListInvoices) ([]Invoice, error) { return all, nil })
	vurb.Query(app, "billing.get", func(_ context.Context, in InvoiceRef) (*Invoice, error) {
		for i := range all {
			if all[i].ID == in.InvoiceID {
				return &all[i], nil
			}
		}
		return nil, fmt.Errorf("no invoice %s", in.InvoiceID)
	})
	vurb.Query(app, "billing.account", func(context.Context, CustomerRef) (Account, error) {
		by := map[string][]Invoice{}
		for _, inv := range all {
			by[inv.Status] = append(by[inv.Status], inv)
		}
		return Account{Owner: *all[0].Customer, Latest: &all[len(all)-1], ByStatus: by, Extra: all[1]}, nil
	})
	vurb.Query(app, "billing.any", func(context.Context, CustomerRef) (any, error) { return all[0], nil })
	vurb.Mutation(app, "billing.pay", func(_ context.Context, in InvoiceRef) (string, error) { return "paid " + in.InvoiceID, nil })
	vurb.Mutation(app, "billing.refund", func(_ context.Context, in InvoiceRef) (string, error) { return "refunded", nil }).
		RequireScopes("refunds")
	return app
}

// presentedBilling is billingApp with the invoice presenter and a
// customer presenter.
func presentedBilling(rows, limit int, opts ...vurb.Option) *vurb.App {
	presenters := vurb.WithPresenters(invoicePresenter(limit), presenter.New[Customer]().Rules("customers are companies"))
	return billingApp(rows, append([]vurb.Option{presenters}, opts...)...)
}

// callOK calls name in-process and fails unless it succeeded.
func callOK(t testing.TB, app *vurb.App, name, args string) *mcp.CallToolResult {
	t.Helper()
	res, err := app.Call(context.Background(), name, json.RawMessage(args))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if res.IsError {
		t.Fatalf("%s: %s", name, textOf(res, 0))
	}
	return res
}

// textOf is the text of res's block i, "" when it has none.
func textOf(res *mcp.CallToolResult, i int) string {
	if res == nil || i >= len(res.Content) {
		return ""
	}
	if t, ok := res.Content[i].(*mcp.TextContent); ok {
		return t.Text
	}
	return ""
}

// structured is res's structuredContent as JSON, however it is held.
func structured(t testing.TB, res *mcp.CallToolResult) []byte {
	t.Helper()
	if res.StructuredContent == nil {
		return nil
	}
	data, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// wireJSON is the whole result as a client receives it.
func wireJSON(t testing.TB, res *mcp.CallToolResult) string {
	t.Helper()
	data, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// validate checks instance against the JSON Schema doc with an
// independent 2020-12 validator.
func validate(t testing.TB, doc any, instance []byte) error {
	t.Helper()
	return schemaCheck(t, doc)(instance)
}

// schemaCheck compiles the JSON Schema doc with an independent 2020-12
// validator, for instances to be checked against it.
func schemaCheck(t testing.TB, doc any) func(instance []byte) error {
	t.Helper()
	raw, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	sdoc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("mem://out.json", sdoc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("mem://out.json")
	if err != nil {
		t.Fatalf("the schema does not compile: %v\n%s", err, raw)
	}
	return func(instance []byte) error {
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(instance))
		if err != nil {
			return err
		}
		return sch.Validate(inst)
	}
}

// toolNamed is the listed tool called name.
func toolNamed(t testing.TB, tools []*mcp.Tool, name string) *mcp.Tool {
	t.Helper()
	for _, tool := range tools {
		if tool.Name == name {
			return tool
		}
	}
	t.Fatalf("no tool %q", name)
	return nil
}

// noSecret fails when text holds "SECRET": every value the fixture
// redacts or omits holds it, and no other does.
func noSecret(t testing.TB, where, text string) {
	t.Helper()
	if i := strings.Index(text, "SECRET"); i >= 0 {
		t.Fatalf("%s leaks a redacted value: …%s…", where, text[max(0, i-60):min(len(text), i+40)])
	}
}
