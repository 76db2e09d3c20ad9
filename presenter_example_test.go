package vurb_test

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
)

// Bill is an invoice as the domain has it; its card number and the
// payer's email must never reach a client.
type Bill struct {
	ID          string `json:"id"`
	AmountCents int    `json:"amount_cents"`
	Status      string `json:"status"`
	CardNumber  string `json:"card_number"`
	PayerEmail  string `json:"payer_email" redact:"true"`
}

type ListBills struct {
	Status *string `json:"status,omitempty" filter:"true" description:"Only bills with this status"`
}

type BillRef struct {
	ID string `json:"id" validate:"required"`
}

func ExamplePresent() {
	app := vurb.New()
	vurb.Query(app, "bills.list", func(context.Context, ListBills) ([]Bill, error) {
		return []Bill{
			{"B-1", 12000, "overdue", "4111 1111 1111 1111", "ana@example.com"},
			{"B-2", 4550, "paid", "5500 0000 0000 0004", "bo@example.com"},
			{"B-3", 990, "open", "3400 0000 0000 009", "cy@example.com"},
		}, nil
	})
	vurb.Mutation(app, "bills.pay", func(_ context.Context, in BillRef) (string, error) { return "paid " + in.ID, nil })

	vurb.Present(app, vurb.NewPresenter[Bill]().
		Rules("amount_cents is in cents: divide by 100 before showing it").
		RulesFor(func(b Bill) []string {
			if b.Status == "overdue" {
				return []string{"bill " + b.ID + " is overdue: say so first"}
			}
			return nil
		}).
		Suggest(func(b Bill) []vurb.Suggestion {
			if b.Status == "paid" {
				return nil
			}
			return []vurb.Suggestion{{Action: "bills.pay", Reason: "bill " + b.ID + " is unpaid", Args: map[string]any{"id": b.ID}}}
		}).
		Redact("card_number").
		Limit(2))

	res, _ := app.Call(context.Background(), "bills_list", nil)
	for _, c := range res.Content {
		fmt.Println(c.(*mcp.TextContent).Text)
	}
	// Output:
	// [{"id":"B-1","amount_cents":12000,"status":"overdue","card_number":"[redacted]","payer_email":"[redacted]"},{"id":"B-2","amount_cents":4550,"status":"paid","card_number":"[redacted]","payer_email":"[redacted]"}]
	// Rules:
	// - amount_cents is in cents: divide by 100 before showing it
	// - bill B-1 is overdue: say so first
	// Left out:
	// - the result: 2 of 3 Bill shown, 1 left out; narrow the query with status
	// Next actions:
	// - bills_pay {"id":"B-1"}: bill B-1 is unpaid
}

func ExampleReadPresentation() {
	app := vurb.New(vurb.WithExposition(vurb.Grouped))
	vurb.Query(app, "bills.get", func(_ context.Context, in BillRef) (Bill, error) {
		return Bill{ID: in.ID, AmountCents: 990, Status: "open"}, nil
	})
	vurb.Mutation(app, "bills.pay", func(_ context.Context, in BillRef) (string, error) { return "paid " + in.ID, nil })
	vurb.Present(app, vurb.NewPresenter[Bill]().Suggest(func(b Bill) []vurb.Suggestion {
		return []vurb.Suggestion{{Action: "bills.pay", Args: map[string]any{"id": b.ID}}}
	}))

	res, _ := app.Call(context.Background(), "bills", []byte(`{"action":"get","id":"B-3"}`))
	p, _ := vurb.ReadPresentation(res)
	next := p.Next[0]
	fmt.Println(next.Tool, next.Arguments["action"], next.Arguments["id"])
	// Output:
	// bills pay B-3
}
