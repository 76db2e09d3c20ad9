package presenter_test

import (
	"context"
	"fmt"

	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/presenter"
)

type Invoice struct {
	ID          string `json:"id"`
	AmountCents int    `json:"amount_cents"`
	Status      string `json:"status"`
}

type InvoiceRef struct {
	ID string `json:"id" validate:"required"`
}

func ExampleRead() {
	app := vurb.New(vurb.WithExposition(vurb.Grouped), vurb.WithPresenters(presenter.New[Invoice]().
		Rules("amount_cents is in cents: divide by 100 before showing it").
		Suggest(func(inv Invoice) []presenter.Suggestion {
			return []presenter.Suggestion{{Action: "invoices.pay", Reason: "it is open", Args: map[string]any{"id": inv.ID}}}
		})))
	vurb.Query(app, "invoices.get", func(_ context.Context, in InvoiceRef) (Invoice, error) {
		return Invoice{ID: in.ID, AmountCents: 990, Status: "open"}, nil
	})
	vurb.Mutation(app, "invoices.pay", func(_ context.Context, in InvoiceRef) (string, error) { return "paid " + in.ID, nil })

	res, _ := app.Call(context.Background(), "invoices", []byte(`{"action":"get","id":"INV-3"}`))
	p, _ := presenter.Read(res)
	fmt.Println(p.Rules)
	next := p.Next[0]
	fmt.Println(next.Tool, next.Arguments["action"], next.Arguments["id"], "-", next.Reason)
	// Output:
	// [amount_cents is in cents: divide by 100 before showing it]
	// invoices pay INV-3 - it is open
}
