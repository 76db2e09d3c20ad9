package vurbtest_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/vurbtest"
	"github.com/vurb-go/vurb/workflow"
)

type approval struct {
	Request workflow.Handle `json:"request" validate:"required" description:"The request's handle"`
}

// A test drives a workflow as a model would: StartFlow keeps the handle
// the starting call returned, each call passes it, and State and Refused
// say where the instance is.
func ExampleFlow() {
	t := &exampleT{}
	m := workflow.New("approval", "pending").On("pending", "approve", "approved").On("pending", "reject", "rejected").Final("approved", "rejected")
	app := vurb.New()
	vurb.Action(app, "requests.file", func(ctx context.Context, _ struct{}) (approval, error) {
		run, _ := workflow.From(ctx)
		return approval{Request: run.Handle()}, nil
	}).Starts(m)
	vurb.Action(app, "requests.approve", func(context.Context, approval) (string, error) { return "approved", nil }).When(m, "pending").Fires("approve")
	vurb.Action(app, "requests.reject", func(context.Context, approval) (string, error) { return "rejected", nil }).When(m, "pending").Fires("reject")

	c := vurbtest.New(t, app)
	f := c.StartFlow("requests_file", nil)
	fmt.Println(f.State())
	fmt.Println(f.Call("requests_approve", nil), f.State())
	_, allowed := f.Refused("requests_reject", nil)
	fmt.Println(f.State(), len(allowed))
	// Output:
	// pending
	// approved approved
	// approved 0
}

// TestFlowRefusedNamesTheWayOn: a refusal of the gate gives the state and
// the calls that move the instance on; As passes the handle under
// another field.
func TestFlowRefusedNamesTheWayOn(t *testing.T) {
	is := is.New(t)
	type order struct {
		Order workflow.Handle `json:"order" validate:"required" description:"The order's handle"`
	}
	m := workflow.New("order", "new").On("new", "pay", "paid").On("paid", "ship", "shipped").Final("shipped")
	app := vurb.New()
	vurb.Action(app, "orders.open", func(ctx context.Context, _ struct{}) (approval, error) {
		run, _ := workflow.From(ctx)
		return approval{Request: run.Handle()}, nil
	}).Starts(m)
	vurb.Action(app, "orders.pay", func(context.Context, order) (string, error) { return "paid", nil }).When(m, "new").Fires("pay")
	vurb.Action(app, "orders.ship", func(context.Context, order) (string, error) { return "shipped", nil }).When(m, "paid").Fires("ship")
	f := vurbtest.New(t, app).StartFlow("orders_open", nil).As("order")
	text, allowed := f.Refused("orders_ship", nil)
	is.True(strings.Contains(text, `in state "new"`))
	is.Equal(allowed, []string{"orders_pay"})
	is.Equal(f.State(), "new")
	is.Equal(f.Call("orders_pay", nil), "paid")
	is.Equal(f.State(), "paid")
}
