// Command checkout is a shop's checkout as a workflow: a cart is opened,
// filled, checked out, then paid or cancelled, and vurb's state gate makes
// paying an open cart, or adding to a paid one, impossible rather than
// merely discouraged. Each cart is named by a handle the model passes
// back, so the gate holds on every protocol revision and, with
// WithReplicas, across replicas.
//
//	go run ./examples/checkout              # stdio
//	go run ./examples/checkout -http :8080  # http://localhost:8080/mcp
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/observe"
	"github.com/vurb-go/vurb/workflow"
)

// checkout is the cart's life: open (items added, each an "add" that
// keeps it open), then checked out (awaiting payment), then paid, or
// cancelled before it is.
func checkout() *workflow.Machine {
	//docs:region machine
	return workflow.New("checkout", "open").
		On("open", "add", "open").
		On("open", "checkout", "awaiting_payment").
		On("awaiting_payment", "pay", "paid").
		On("open", "cancel", "cancelled").
		On("awaiting_payment", "cancel", "cancelled").
		Final("paid", "cancelled")
	//docs:endregion
}

// Cart is what the starting action returns: the cart's handle.
//
//docs:region handles
type Cart struct {
	Cart workflow.Handle `json:"cart" description:"The cart's handle: pass it to every cart action"`
}

// CartRef names a cart.
type CartRef struct {
	Cart workflow.Handle `json:"cart" validate:"required" description:"The cart's handle, as carts_open returned it"`
}

//docs:endregion

// AddItem adds an item to a cart.
type AddItem struct {
	Cart     workflow.Handle `json:"cart" validate:"required" description:"The cart's handle"`
	SKU      string          `json:"sku" validate:"required,min=3,max=20" description:"The item's SKU"`
	Quantity int             `json:"quantity" validate:"min=1,max=99" default:"1" description:"How many"`
}

// Pay pays a checked-out cart.
type Pay struct {
	Cart workflow.Handle `json:"cart" validate:"required" description:"The cart's handle"`
	Card string          `json:"card" validate:"required,len=4,numeric" description:"The last four digits of the card on file"`
}

// Line is one line of a cart, kept on its workflow instance.
type Line struct {
	SKU      string `json:"sku"`
	Quantity int    `json:"quantity"`
}

// NewApp returns the checkout server.
func NewApp(opts ...vurb.Option) *vurb.App {
	app := vurb.New(append([]vurb.Option{vurb.WithName("checkout"), vurb.WithVersion("1.0.0")}, opts...)...)
	carts := app.Tool("carts").Describe("A shopping cart, from opening to payment")
	m := checkout()

	//docs:region bind
	vurb.Action(carts, "open", func(ctx context.Context, _ struct{}) (Cart, error) {
		run, _ := workflow.From(ctx)
		return Cart{Cart: run.Handle()}, nil
	}).Describe("Open a new, empty cart").Starts(m)
	//docs:endregion

	vurb.Query(carts, "show", func(ctx context.Context, in CartRef) (string, error) {
		run, _ := workflow.From(ctx)
		var lines []Line
		if _, err := run.Get("lines", &lines); err != nil {
			return "", err
		}
		return fmt.Sprintf("%s: %s", run.State(), describe(lines)), nil
	}).Describe("Show a cart's state and items").When(m, "open", "awaiting_payment", "paid", "cancelled")

	// The cart's lines are attached to its instance. Only a call that
	// fires an event attaches data, so adding fires "add", which keeps the
	// cart open: of two adds at once, one runs and the other is told to
	// call again, and no line is lost.
	//docs:region data
	vurb.Action(carts, "add", func(ctx context.Context, in AddItem) (string, error) {
		run, _ := workflow.From(ctx)
		var lines []Line
		if _, err := run.Get("lines", &lines); err != nil {
			return "", err
		}
		lines = append(lines, Line{SKU: in.SKU, Quantity: in.Quantity})
		if err := run.Set("lines", lines); err != nil {
			return "", err
		}
		return describe(lines), nil
	}).Describe("Add an item to an open cart").When(m, "open").Fires("add")
	//docs:endregion

	vurb.Action(carts, "checkout", func(ctx context.Context, in CartRef) (string, error) {
		run, _ := workflow.From(ctx)
		var lines []Line
		if _, err := run.Get("lines", &lines); err != nil {
			return "", err
		}
		if len(lines) == 0 {
			return "", errors.New("the cart is empty: add an item first")
		}
		return "checked out " + describe(lines) + "; now pay", nil
	}).Describe("Check an open cart out, for payment").When(m, "open").Fires("checkout")

	//docs:region gate
	vurb.Action(carts, "pay", func(ctx context.Context, in Pay) (string, error) {
		return "paid with the card ending " + in.Card, nil
	}).Describe("Pay a checked-out cart").When(m, "awaiting_payment").Fires("pay")

	vurb.Mutation(carts, "cancel", func(ctx context.Context, in CartRef) (string, error) {
		return "cancelled", nil
	}).Describe("Cancel a cart that is not paid").When(m, "open", "awaiting_payment").Fires("cancel")
	//docs:endregion
	return app
}

func describe(lines []Line) string {
	if len(lines) == 0 {
		return "empty"
	}
	parts := make([]string, len(lines))
	for i, l := range lines {
		parts[i] = fmt.Sprintf("%d × %s", l.Quantity, l.SKU)
	}
	return strings.Join(parts, ", ")
}

func main() {
	addr := flag.String("http", "", "serve streamable HTTP at http://ADDR/mcp instead of stdio")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	// Every call, and every move of a cart, is logged to stderr.
	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
	app := NewApp(vurb.WithLogger(logger), vurb.WithObserver(observe.Slog(logger)))
	var err error
	if *addr == "" {
		err = app.Serve(ctx, vurb.Stdio())
	} else {
		log.Printf("checkout: serving MCP at http://%s/mcp", *addr)
		err = app.ListenAndServe(ctx, *addr)
	}
	if err != nil {
		log.Fatal(err)
	}
}
