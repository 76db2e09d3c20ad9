package bench

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/workflow"
)

// docsSearch is the served contenders' input (internal/servedserver).
type docsSearch struct {
	Query string `json:"query" validate:"required" description:"Search text"`
	Limit *int   `json:"limit,omitempty" validate:"omitempty,min=1,max=100" description:"Page size"`
}

type orderRef struct {
	Order workflow.Handle `json:"order" validate:"required" description:"The order's handle"`
}

// workflowApp is the bench app (docs_search), with, when gated, an order
// workflow beside it: orders are started, shown (no event) and paid and
// refunded in a loop (an event each).
func workflowApp(gated bool) *vurb.App {
	app := vurb.New(vurb.WithName("bench"), vurb.WithLogger(discard))
	vurb.Query(app, "docs.search", func(_ context.Context, in docsSearch) (string, error) { return in.Query, nil }).
		Describe("Search the documents")
	if !gated {
		return app
	}
	m := workflow.New("order", "new").On("new", "pay", "paid").On("paid", "refund", "new").On("paid", "close", "closed").Final("closed")
	vurb.Action(app, "order.start", func(ctx context.Context, _ struct{}) (orderRef, error) {
		run, _ := workflow.From(ctx)
		return orderRef{Order: run.Handle()}, nil
	}).Starts(m)
	vurb.Query(app, "order.show", func(context.Context, orderRef) (string, error) { return "shown", nil }).When(m, "new", "paid")
	vurb.Action(app, "order.pay", func(context.Context, orderRef) (string, error) { return "paid", nil }).When(m, "new").Fires("pay")
	vurb.Action(app, "order.refund", func(context.Context, orderRef) (string, error) { return "refunded", nil }).When(m, "paid").Fires("refund")
	vurb.Action(app, "order.close", func(context.Context, orderRef) (string, error) { return "closed", nil }).When(m, "paid").Fires("close")
	return app
}

// servedLoopback serves h on a loopback port for the benchmark's life.
func servedLoopback(b *testing.B, h http.Handler) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	srv := &http.Server{Handler: h}
	go srv.Serve(ln)
	b.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

// BenchmarkWorkflowGateServed: the workflow gate costs a call of an
// ungated action nothing. The same docs_search call, served over HTTP
// (revision 2026-07-28, the fast lane), to an app without workflows and
// to one with a workflow beside it, interleaved on one connection each.
func BenchmarkWorkflowGateServed(b *testing.B) {
	names := []string{"no-workflow", "with-workflow"}
	clients := make([]*httpClient, len(names))
	for i, gated := range []bool{false, true} {
		c, err := dialHTTP(servedLoopback(b, workflowApp(gated).HTTPHandler()), "http-2026")
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { c.close() })
		if err := c.call(); err != nil {
			b.Fatal(err)
		}
		clients[i] = c
	}
	calls := make([]func() error, len(clients))
	for i, c := range clients {
		calls[i] = c.call
	}
	n, totals := interleave(b, calls)
	reportPaired(b, n, names, totals, [][2]int{{1, 0}})
}

// BenchmarkWorkflowGateInProcess: in one process (App.Call, the store in
// memory) an ungated call of an app with a workflow beside it against
// one without, and the gated calls: one that fires no event (an instance
// read) and one that fires an event (a claim, then its commit), each
// pair of the last paying then refunding one order.
func BenchmarkWorkflowGateInProcess(b *testing.B) {
	ctx := context.Background()
	plain, gated := workflowApp(false), workflowApp(true)
	search := json.RawMessage(`{"query":"golang","limit":10}`)
	res, err := gated.Call(ctx, "order_start", json.RawMessage(`{}`))
	if err != nil || res.IsError {
		b.Fatal(err, res)
	}
	order, _ := json.Marshal(res.StructuredContent)
	names := []string{"ungated/no-workflow", "ungated/with-workflow", "gated/no-event", "gated/event"}
	ok := func(r *mcp.CallToolResult, err error) error {
		if err == nil && r.IsError {
			err = errors.New(r.Content[0].(*mcp.TextContent).Text)
		}
		return err
	}
	calls := []func() error{
		func() error { return ok(plain.Call(ctx, "docs_search", search)) },
		func() error { return ok(gated.Call(ctx, "docs_search", search)) },
		func() error { return ok(gated.Call(ctx, "order_show", order)) },
		func() error {
			if err := ok(gated.Call(ctx, "order_pay", order)); err != nil {
				return err
			}
			return ok(gated.Call(ctx, "order_refund", order))
		},
	}
	n, totals := interleave(b, calls)
	totals[3] /= 2 // two calls, each firing an event
	reportPaired(b, n, names, totals, [][2]int{{1, 0}, {2, 0}, {3, 0}})
}
