package vurb_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb"
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
			cs := workflowClient(t, c.app, p.version, p.stateless, nil)
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
