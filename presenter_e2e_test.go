package vurb_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/presenter"
	"github.com/vurb-go/vurb/vurbtest"
)

// TestPresenterEndToEnd: a real go-sdk client, in memory and over HTTP,
// on both protocol generations, in both expositions, reads presented
// results: structured content that validates against the outputSchema
// it listed, no redacted value anywhere in what it received, the rules,
// the cut and the suggestions named as it must call them.
func TestPresenterEndToEnd(t *testing.T) {
	for _, transport := range []string{"memory", "http"} {
		for _, protocol := range []string{vurbtest.DefaultProtocol, vurbtest.Sessionless} {
			for _, exp := range []vurb.Exposition{vurb.Flat, vurb.Grouped} {
				t.Run(transport+"/"+protocol+"/"+exp.String(), func(t *testing.T) {
					opts := []vurbtest.Option{vurbtest.Protocol(protocol)}
					if transport == "http" {
						opts = append(opts, vurbtest.OverHTTP())
					}
					c := vurbtest.New(t, presentedBilling(50, 20, vurb.WithExposition(exp)), opts...)
					tool, args := "billing_list", map[string]any{}
					payTool, pay := "billing_pay", map[string]any{"invoice_id": "INV-0001"}
					if exp == vurb.Grouped {
						tool, args = "billing", map[string]any{"action": "list"}
						payTool, pay = "billing", map[string]any{"action": "pay", "invoice_id": "INV-0001"}
					}
					checkPresentedCall(t, c, tool, args)
					c.CallPresented(tool, args).
						WantRules(ruleCents, "customers are companies", "invoice INV-0001 is overdue").
						WantLeftOut("invoices", 20, 50).
						WantNext(payTool, pay)
					// The model calls the suggestion exactly as it was written.
					is.New(t).Equal(c.CallText(payTool, pay), "paid INV-0001")
				})
			}
		}
	}
}

// checkPresentedCall calls tool through c's session and holds what came
// back to the tool's listed outputSchema and to the redactions.
func checkPresentedCall(t *testing.T, c *vurbtest.Client, tool string, args map[string]any) {
	t.Helper()
	is := is.New(t)
	res, err := c.CallResult(tool, args)
	is.NoErr(err)
	is.True(!res.IsError)
	noSecret(t, tool, wireJSON(t, res))
	listed, err := c.Session().ListTools(context.Background(), nil)
	is.NoErr(err)
	// A grouped tool whose actions return different types declares no
	// output schema (MCP gives a tool one); a flat one always does here.
	if out := toolNamed(t, listed.Tools, tool).OutputSchema; out != nil || !strings.Contains(tool, "_") {
		if out != nil {
			is.NoErr(validate(t, out, structured(t, res)))
		}
	} else {
		t.Fatalf("%s lists no output schema", tool)
	}
	var text, sc any
	is.NoErr(json.Unmarshal([]byte(textOf(res, 0)), &text))
	is.NoErr(json.Unmarshal(structured(t, res), &sc))
	is.Equal(text, sc) // the text shows the same data
}

// TestPresenterSchemaIsTrue: every presented action's structured content
// validates against its outputSchema, which names the marker and leaves
// the omitted field out; the same data unredacted would not validate, so
// the schema says something.
func TestPresenterSchemaIsTrue(t *testing.T) {
	is := is.New(t)
	app := presentedBilling(7, 50)
	for _, c := range []struct{ name, args string }{
		{"billing_list", `{}`}, {"billing_get", `{"invoice_id":"INV-0003"}`}, {"billing_account", `{}`},
	} {
		tool := toolNamed(t, app.Tools(), c.name)
		res := callOK(t, app, c.name, c.args)
		is.NoErr(validate(t, tool.OutputSchema, structured(t, res)))
		data, _ := json.Marshal(tool.OutputSchema)
		is.True(!strings.Contains(string(data), `"internal"`)) // omitted: not a property
	}
	plain, _ := json.Marshal(invoices(3)[2])
	is.True(validate(t, toolNamed(t, app.Tools(), "billing_get").OutputSchema, plain) != nil)
}

// TestPresenterSuggestsOnlyWhatTheCallerSees: a suggestion of an action
// the caller is not shown (its class does not see it, its token lacks the
// scopes, the server filters it out) is not written.
func TestPresenterSuggestsOnlyWhatTheCallerSees(t *testing.T) {
	build := func(opts ...vurb.Option) *vurb.App {
		p := presenter.New[Invoice]().Suggest(func(inv Invoice) []presenter.Suggestion {
			if inv.Status == "paid" {
				return []presenter.Suggestion{{Action: "billing.refund", Args: map[string]any{"invoice_id": inv.ID}}}
			}
			return []presenter.Suggestion{{Action: "billing.pay", Args: map[string]any{"invoice_id": inv.ID}}}
		})
		return billingApp(4, append(opts, vurb.WithPresenters(p))...)
	}
	visibility := vurb.WithVisibility(func(c *vurb.Caller) string { return c.Subject() },
		func(class string, a vurb.ActionInfo) bool { return class == "admin" || a.Annotations.ReadOnlyHint })
	admin := vurbtest.Identity{Token: &auth.TokenInfo{UserID: "admin", Scopes: []string{"refunds"}}}
	viewer := vurbtest.Identity{Token: &auth.TokenInfo{UserID: "viewer", Scopes: []string{"refunds"}}}
	noScope := vurbtest.Identity{Token: &auth.TokenInfo{UserID: "admin"}}

	vurbtest.New(t, build(visibility), admin).CallPresented("billing_search", nil).
		WantNext("billing_pay", nil).WantNext("billing_refund", nil)
	vurbtest.New(t, build(visibility), viewer).CallPresented("billing_search", nil).
		WantNoNext("billing_pay").WantNoNext("billing_refund")
	vurbtest.New(t, build(visibility), noScope, vurbtest.OverHTTP()).CallPresented("billing_search", nil).
		WantNext("billing_pay", nil).WantNoNext("billing_refund")

	// The server's tag filter, in an app without scopes or visibility
	// rules: its tools are what every caller sees.
	tagged := vurb.New(vurb.WithPresenters(presenter.New[Invoice]().Suggest(func(inv Invoice) []presenter.Suggestion {
		return []presenter.Suggestion{{Action: "extra.ping"}, {Action: "billing.pay", Args: map[string]any{"invoice_id": inv.ID}}}
	})))
	vurb.Query(tagged, "billing.search", func(context.Context, struct{}) ([]Invoice, error) { return invoices(2), nil })
	vurb.Mutation(tagged, "billing.pay", func(context.Context, InvoiceRef) (string, error) { return "paid", nil })
	vurb.Query(tagged, "extra.ping", func(context.Context, struct{}) (string, error) { return "pong", nil })
	tagged.Tool("extra").Tags("internal")
	p := vurbtest.New(t, tagged, vurbtest.Serve(vurb.WithExcludeTags("internal")), vurbtest.OverHTTP(), vurbtest.Protocol(vurbtest.Sessionless)).
		CallPresented("billing_search", nil).WantNext("billing_pay", nil).WantNoNext("extra_ping")
	is.New(t).True(!slices.ContainsFunc(p.Next, func(n presenter.NextCall) bool { return n.Tool == "extra_ping" }))

	// In-process, ContextWithCaller is held to the same rules.
	ctx := vurb.ContextWithCaller(context.Background(), &vurb.Caller{Token: viewer.Token})
	res, err := build(visibility).Call(ctx, "billing_search", nil)
	is.New(t).NoErr(err)
	got, _ := presenter.Read(res)
	is.New(t).Equal(len(got.Next), 0)
}

// TestPresenterTaskResult: a presented action run as a task (tasks
// extension, 2026-07-28 over HTTP) completes with the presented result.
func TestPresenterTaskResult(t *testing.T) {
	is := is.New(t)
	app := billingApp(30, vurb.WithPresenters(invoicePresenter(10)))
	vurb.Query(app, "reports.invoices", func(context.Context, struct{}) (InvoicePage, error) {
		all := invoices(30)
		return InvoicePage{Invoices: all, Total: len(all)}, nil
	}).Task()
	h := app.HTTPHandler()
	done := waitTask(t, h, startTask(t, h, "reports_invoices"), "completed")
	data, err := json.Marshal(done["result"])
	is.NoErr(err)
	noSecret(t, "the task's result", string(data))
	var res mcp.CallToolResult
	is.NoErr(json.Unmarshal(data, &res))
	p, ok := presenter.Read(&res)
	is.True(ok)
	is.Equal(p.LeftOut[0].Shown, 10)
	is.True(slices.Contains(p.Rules, ruleCents))
	is.Equal(p.Next[0].Tool, "billing_pay")
}

// TestPresenterThroughMiddlewareAndNotice: the presentation block comes
// after the data and before the state-sync notice, and middleware sees
// the presented result.
func TestPresenterThroughMiddlewareAndNotice(t *testing.T) {
	is := is.New(t)
	app := billingApp(3, vurb.WithPresenters(invoicePresenter(50)))
	var seen string
	app.Use(func(next vurb.Handler) vurb.Handler {
		return func(ctx context.Context, c *vurb.Call) (*mcp.CallToolResult, error) {
			res, err := next(ctx, c)
			if res != nil {
				seen = wireJSON(t, res)
			}
			return res, err
		}
	})
	vurb.Action(app, "billing.issue", func(context.Context, struct{}) (Invoice, error) { return invoices(1)[0], nil }).
		Invalidates("billing.*")
	res := callOK(t, app, "billing_issue", `{}`)
	noSecret(t, "middleware", seen)
	is.Equal(len(res.Content), 3)
	is.True(strings.HasPrefix(textOf(res, 1), "Rules:"))
	is.True(strings.Contains(textOf(res, 2), "billing.*")) // the notice, last
}
