package main

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/vurbtest"
)

// Example shows what the model receives for one invoice: the data with
// the card number and the email redacted, then the rules and the next
// action, named as it must call it.
func Example() {
	res, _ := NewApp(3).Call(context.Background(), "invoices_get", []byte(`{"id":"INV-003"}`))
	for _, c := range res.Content {
		fmt.Println(c.(*mcp.TextContent).Text)
	}
	// Output:
	// {"id":"INV-003","amount_cents":3499,"status":"overdue","card_number":"[redacted]","customer":{"id":"C3","name":"Initech","email":"[redacted]"}}
	// Rules:
	// - amount_cents is in cents: divide by 100 before showing it
	// - customers are companies; name them, never their contact details
	// - invoice INV-003 is overdue: say so first
	// Next actions:
	// - invoices_pay {"id":"INV-003"}: invoice INV-003 is unpaid
}

// TestListThroughAClient lists 60 invoices through a real client in both
// expositions: 20 are shown, the rest announced with the fields that
// narrow the list, the suggestion is callable as written, and no card
// number or email is in anything the client received.
func TestListThroughAClient(t *testing.T) {
	for _, exp := range []vurb.Exposition{vurb.Flat, vurb.Grouped} {
		t.Run(exp.String(), func(t *testing.T) {
			c := vurbtest.New(t, NewApp(60, vurb.WithExposition(exp)), vurbtest.OverHTTP())
			list, get, pay := "invoices_list", map[string]any{}, map[string]any{"id": "INV-002"}
			tool := "invoices_pay"
			if exp == vurb.Grouped {
				list, tool = "invoices", "invoices"
				get["action"], pay["action"] = "list", "pay"
			}
			//docs:region test
			p := c.CallPresented(list, get).
				WantRules("amount_cents is in cents: divide by 100 before showing it").
				WantLeftOut("invoices", 20, 60).
				WantNext(tool, pay)
			//docs:endregion
			if got := p.LeftOut[0].Narrow; strings.Join(got, ",") != "status,customer_id" {
				t.Fatalf("narrowed by %v", got)
			}
			for _, leak := range []string{"4111", "@"} {
				if strings.Contains(p.Data, leak) || strings.Contains(p.Block, leak) {
					t.Fatalf("%q reached the client", leak)
				}
			}
			after := c.CallPresented(tool, pay)
			if after.Data == "" || strings.Contains(after.Data, "4111") {
				t.Fatalf("pay answered %q", after.Data)
			}
			after.WantNoNext(tool) // paid: nothing left to pay
		})
	}
}
