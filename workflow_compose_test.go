package vurb_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/vurbtest"
	"github.com/vurb-go/vurb/workflow"
)

// TestWorkflowGateThroughCallTool: under tool search, a call carried by
// call_tool meets the gate exactly as a direct call does, and the search
// listing never changes as the instance moves.
func TestWorkflowGateThroughCallTool(t *testing.T) {
	for _, p := range workflowPaths {
		t.Run(p.name, func(t *testing.T) {
			is := is.New(t)
			c := newCheckoutApp(vurb.WithToolSearch())
			cs := workflowClient(t, c.app, p.version, p.stateless, p.noLane, nil)
			before := sortedNames(t, cs)
			h := startCart(t, cs)
			direct, _ := flowCall(t, cs, "cart_pay", map[string]any{"cart": h})
			carried, isErr := flowCall(t, cs, "call_tool", map[string]any{"name": "cart_pay", "arguments": map[string]any{"cart": h}})
			is.True(isErr)
			is.Equal(carried, direct) // word for word
			_, isErr = flowCall(t, cs, "call_tool", map[string]any{"name": "cart_checkout", "arguments": map[string]any{"cart": h}})
			is.True(!isErr)
			text, isErr := flowCall(t, cs, "call_tool", map[string]any{"name": "cart_pay", "arguments": map[string]any{"cart": h}})
			is.True(!isErr)
			is.Equal(text, "paid c_42")
			is.Equal(sortedNames(t, cs), before)
			is.Equal(c.runs["pay"].Load(), int32(1))
		})
	}
}

type reportHandle struct {
	Report workflow.Handle `json:"report" validate:"required" description:"The report's handle"`
}

// TestWorkflowGateOnTasks: a gated action that runs as a task is refused
// out of state with an ordinary answer (no task made); in state, the move
// is made when the task's handler succeeds.
func TestWorkflowGateOnTasks(t *testing.T) {
	is := is.New(t)
	m := workflow.New("report", "draft").On("draft", "publish", "published").Final("published")
	app := vurb.New(vurb.WithTasks(vurb.TaskConfig{}))
	vurb.Action(app, "reports.draft", func(ctx context.Context, _ struct{}) (reportHandle, error) {
		run, _ := workflow.From(ctx)
		return reportHandle{Report: run.Handle()}, nil
	}).Starts(m)
	vurb.Action(app, "reports.publish", func(context.Context, reportHandle) (string, error) { return "published", nil }).
		When(m, "draft").Fires("publish").Task()
	h := app.HTTPHandler()
	_, resp := taskRPC(t, h, tasksCaps, "tools/call", "reports_draft", `"name":"reports_draft","arguments":{}`)
	var started reportHandle
	raw, _ := json.Marshal(result(t, resp)["structuredContent"])
	is.NoErr(json.Unmarshal(raw, &started))
	args := `"name":"reports_publish","arguments":{"report":"` + string(started.Report) + `"}`

	_, resp = taskRPC(t, h, tasksCaps, "tools/call", "reports_publish", args)
	res := result(t, resp)
	is.Equal(res["resultType"], "task")
	task := waitTask(t, h, res["taskId"].(string), "completed")
	is.Equal(textOfResult(t, task["result"]), "published")

	_, resp = taskRPC(t, h, tasksCaps, "tools/call", "reports_publish", args)
	res = result(t, resp)
	is.True(res["resultType"] != "task") // refused at once, no task
	is.Equal(res["isError"], true)
	is.True(strings.Contains(textOfResult(t, res), `in state "published"`))
}

// TestWorkflowGateInGroupedExposition: the binding is each action's own,
// whatever tool or group holds it and whatever categories it joins: in
// grouped exposition the refusal names the way on as the model calls it
// there, and two tools each bound to their own machine keep both.
func TestWorkflowGateInGroupedExposition(t *testing.T) {
	is := is.New(t)
	c := newCheckoutApp(vurb.WithExposition(vurb.Grouped))
	promos := c.app.Category("promotions")
	m := workflow.New("coupon", "issued").On("issued", "redeem", "redeemed").Final("redeemed")
	coupons := c.app.Tool("coupons")
	vurb.Action(coupons.Group("admin", "Coupon administration"), "issue", func(ctx context.Context, _ struct{}) (reportHandle, error) {
		run, _ := workflow.From(ctx)
		return reportHandle{Report: run.Handle()}, nil
	}).Starts(m).In(promos)
	vurb.Action(coupons.Group("desk", "Coupon desk"), "redeem", func(context.Context, reportHandle) (string, error) { return "redeemed", nil }).
		When(m, "issued").Fires("redeem").In(promos)
	cs := connect(t, c.app, nil)

	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "cart", Arguments: map[string]any{"action": "start"}})
	is.NoErr(err)
	raw, _ := json.Marshal(res.StructuredContent)
	var cart cartOut
	is.NoErr(json.Unmarshal(raw, &cart))
	text, isErr := flowCall(t, cs, "cart", map[string]any{"action": "pay", "cart": cart.Cart})
	is.True(isErr)
	is.True(strings.Contains(text, `[cart action=pay] not allowed now`))
	is.True(strings.Contains(text, `cart with {"action":"checkout"} (moves it to "payment")`))

	res, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "coupons", Arguments: map[string]any{"action": "admin.issue"}})
	is.NoErr(err)
	raw, _ = json.Marshal(res.StructuredContent)
	var coupon reportHandle
	is.NoErr(json.Unmarshal(raw, &coupon))
	_, isErr = flowCall(t, cs, "coupons", map[string]any{"action": "desk.redeem", "report": coupon.Report})
	is.True(!isErr)
	text, isErr = flowCall(t, cs, "coupons", map[string]any{"action": "desk.redeem", "report": coupon.Report})
	is.True(isErr)
	is.True(strings.Contains(text, `in state "redeemed"`))
	// A handle of one machine is no handle of another.
	text, isErr = flowCall(t, cs, "cart", map[string]any{"action": "checkout", "cart": coupon.Report})
	is.True(isErr)
	is.True(strings.Contains(text, "no such workflow instance"))
}

// TestWorkflowRefusalNamesOnlyWhatTheServerServes: a refusal offers the
// actions the caller is shown, so not one a tag filter keeps off the
// server.
func TestWorkflowRefusalNamesOnlyWhatTheServerServes(t *testing.T) {
	is := is.New(t)
	m := workflow.New("ticket", "open").On("open", "close", "closed").On("open", "purge", "closed").Final("closed")
	app := vurb.New()
	vurb.Action(app, "tickets.open", func(ctx context.Context, _ struct{}) (reportHandle, error) {
		run, _ := workflow.From(ctx)
		return reportHandle{Report: run.Handle()}, nil
	}).Starts(m)
	vurb.Action(app, "tickets.close", func(context.Context, reportHandle) (string, error) { return "closed", nil }).When(m, "open").Fires("close")
	vurb.Mutation(app, "tickets.purge", func(context.Context, reportHandle) (string, error) { return "purged", nil }).When(m, "open").Fires("purge").Tags("admin")
	vurb.Query(app, "tickets.audit", func(context.Context, reportHandle) (string, error) { return "audited", nil }).When(m, "closed")
	f := vurbtest.New(t, app, vurbtest.Serve(vurb.WithExcludeTags("admin"))).StartFlow("tickets_open", nil).As("report")
	text, allowed := f.Refused("tickets_audit", nil)
	is.Equal(allowed, []string{"tickets_close"}) // not tickets_purge, which this server does not serve
	is.True(!strings.Contains(text, "purge"))
}
