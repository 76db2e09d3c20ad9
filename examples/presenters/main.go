// Command presenters is an invoicing server that shows vurb's presenters:
// handlers return domain values whole, and presenters decide what of them
// leaves the server and what the model is told with them.
//
//   - The card number (presenter.Presenter.Redact) and the customer's email (a
//     redact:"true" tag) never reach a client: they hold "[redacted]",
//     in the structured content and in the text alike, and each tool's
//     outputSchema says so.
//   - Rules travel with the data, once per result: amounts are in cents,
//     and which invoices are overdue.
//   - Suggested next actions are computed from each invoice and written as
//     the model must call them: invoices_pay in flat exposition, invoices
//     with "action":"pay" in grouped.
//   - A listing keeps the first 20 invoices and tells the model how many
//     it left out and which inputs narrow the query.
//
// Run it:
//
//	go run ./examples/presenters                      # stdio
//	go run ./examples/presenters -http 127.0.0.1:8080 # http://127.0.0.1:8080/mcp
//	go run ./examples/presenters -grouped             # grouped exposition
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"log/slog"
	"os"
	"os/signal"
	"slices"
	"sync"
	"syscall"

	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/presenter"
)

// Customer is a company that is billed. Its email is personal data: the
// tag keeps it from every client, with or without a presenter.
type Customer struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Email string `json:"email" redact:"true"`
}

// Invoice is what the handlers work with, card number included.
type Invoice struct {
	ID          string   `json:"id"`
	AmountCents int      `json:"amount_cents"`
	Status      string   `json:"status"` // open, overdue, paid
	CardNumber  string   `json:"card_number"`
	Customer    Customer `json:"customer"`
}

// InvoiceList is a page of invoices.
type InvoiceList struct {
	Invoices []Invoice `json:"invoices"`
	Total    int       `json:"total"`
}

type ListInvoices struct {
	Status     *string `json:"status,omitempty" filter:"true" validate:"omitempty,oneof=open overdue paid" description:"Only invoices with this status"`
	CustomerID *string `json:"customer_id,omitempty" filter:"true" description:"Only this customer's invoices"`
}

type InvoiceRef struct {
	ID string `json:"id" validate:"required" description:"Invoice ID"`
}

// Ledger is an in-memory set of invoices, safe for concurrent use.
type Ledger struct {
	mu       sync.Mutex
	invoices []Invoice
}

// NewLedger makes n invoices for three customers.
func NewLedger(n int) *Ledger {
	customers := []Customer{
		{"C1", "Acme", "billing@acme.example"},
		{"C2", "Globex", "ap@globex.example"},
		{"C3", "Initech", "finance@initech.example"},
	}
	statuses := []string{"paid", "open", "overdue", "paid"}
	l := &Ledger{}
	for i := range n {
		l.invoices = append(l.invoices, Invoice{
			ID: fmt.Sprintf("INV-%03d", i+1), AmountCents: 1999 + 750*i, Status: statuses[i%len(statuses)],
			CardNumber: fmt.Sprintf("4111 1111 1111 %04d", i), Customer: customers[i%len(customers)],
		})
	}
	return l
}

func (l *Ledger) list(_ context.Context, in ListInvoices) (InvoiceList, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out InvoiceList
	for _, inv := range l.invoices {
		if (in.Status == nil || inv.Status == *in.Status) && (in.CustomerID == nil || inv.Customer.ID == *in.CustomerID) {
			out.Invoices = append(out.Invoices, inv)
		}
	}
	out.Total = len(out.Invoices)
	return out, nil
}

func (l *Ledger) get(_ context.Context, in InvoiceRef) (Invoice, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	i := slices.IndexFunc(l.invoices, func(inv Invoice) bool { return inv.ID == in.ID })
	if i < 0 {
		return Invoice{}, fmt.Errorf("no invoice %q; list invoices to see their ids", in.ID)
	}
	return l.invoices[i], nil
}

func (l *Ledger) pay(_ context.Context, in InvoiceRef) (Invoice, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	i := slices.IndexFunc(l.invoices, func(inv Invoice) bool { return inv.ID == in.ID })
	if i < 0 {
		return Invoice{}, fmt.Errorf("no invoice %q; list invoices to see their ids", in.ID)
	}
	if l.invoices[i].Status == "paid" {
		return Invoice{}, fmt.Errorf("invoice %s is already paid", in.ID)
	}
	l.invoices[i].Status = "paid"
	return l.invoices[i], nil
}

// InvoicePresenter shapes every Invoice any action returns.
func InvoicePresenter() *presenter.Presenter[Invoice] {
	return presenter.New[Invoice]().
		Rules("amount_cents is in cents: divide by 100 before showing it").
		RulesFor(func(inv Invoice) []string {
			if inv.Status == "overdue" {
				return []string{"invoice " + inv.ID + " is overdue: say so first"}
			}
			return nil
		}).
		Suggest(func(inv Invoice) []presenter.Suggestion {
			if inv.Status == "paid" {
				return nil
			}
			return []presenter.Suggestion{{Action: "invoices.pay", Reason: "invoice " + inv.ID + " is unpaid",
				Args: map[string]any{"id": inv.ID}}}
		}).
		Redact("card_number").
		Limit(20)
}

// NewApp declares the server over a ledger of n invoices.
func NewApp(n int, opts ...vurb.Option) *vurb.App {
	l := NewLedger(n)
	app := vurb.New(append([]vurb.Option{vurb.WithName("invoices"), vurb.WithVersion("1.0.0"),
		vurb.WithPresenters(InvoicePresenter(),
			presenter.New[Customer]().Rules("customers are companies; name them, never their contact details")),
	}, opts...)...)
	vurb.Query(app, "invoices.list", l.list).Describe("List invoices, newest last.")
	vurb.Query(app, "invoices.get", l.get).Describe("Get one invoice.")
	vurb.Mutation(app, "invoices.pay", l.pay).Describe("Charge the card on file for an unpaid invoice.")
	return app
}

func main() {
	addr := flag.String("http", "", "serve streamable HTTP at http://ADDR/mcp instead of stdio")
	grouped := flag.Bool("grouped", false, "one tool with an action field instead of one tool per action")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	exp := vurb.Flat
	if *grouped {
		exp = vurb.Grouped
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
	app := NewApp(60, vurb.WithLogger(logger), vurb.WithExposition(exp))
	var err error
	if *addr == "" {
		err = app.Serve(ctx, vurb.Stdio())
	} else {
		log.Printf("presenters: serving MCP at http://%s/mcp", *addr)
		err = app.ListenAndServe(ctx, *addr)
	}
	if err != nil {
		log.Fatal(err)
	}
}
