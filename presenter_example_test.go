package vurb_test

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/presenter"
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

func ExampleWithPresenters() {
	app := vurb.New(vurb.WithPresenters(presenter.New[Bill]().
		Rules("amount_cents is in cents: divide by 100 before showing it").
		RulesFor(func(b Bill) []string {
			if b.Status == "overdue" {
				return []string{"bill " + b.ID + " is overdue: say so first"}
			}
			return nil
		}).
		Suggest(func(b Bill) []presenter.Suggestion {
			if b.Status == "paid" {
				return nil
			}
			return []presenter.Suggestion{{Action: "bills.pay", Reason: "bill " + b.ID + " is unpaid", Args: map[string]any{"id": b.ID}}}
		}).
		Redact("card_number").
		Limit(2)))
	vurb.Query(app, "bills.list", func(context.Context, ListBills) ([]Bill, error) {
		return []Bill{
			{"B-1", 12000, "overdue", "4111 1111 1111 1111", "ana@example.com"},
			{"B-2", 4550, "paid", "5500 0000 0000 0004", "bo@example.com"},
			{"B-3", 990, "open", "3400 0000 0000 009", "cy@example.com"},
		}, nil
	})
	vurb.Mutation(app, "bills.pay", func(_ context.Context, in BillRef) (string, error) { return "paid " + in.ID, nil })

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
