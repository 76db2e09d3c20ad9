package vurb_test

import (
	"context"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/store"
)

type Report struct {
	Month string `json:"month" validate:"required" description:"The month to report on, like 2026-07"`
}

// A long-running action is an ordinary action declared with Task: clients
// that support the tasks extension get a task to poll, the others the
// result, from the same handler.
func ExampleActionDef_Task() {
	// One store for every replica (here, one process's).
	app := vurb.New(vurb.WithName("reports"), vurb.WithTasks(vurb.TaskConfig{Store: store.NewMemoryTasks(1000)}))
	vurb.Action(app, "reports.build", func(ctx context.Context, in Report) (string, error) {
		for week := 1; week <= 4; week++ {
			_ = vurb.SetTaskStatus(ctx, fmt.Sprintf("week %d of 4", week)) // ErrNoTask outside a task
			// ... the slow part ...
		}
		return "report for " + in.Month, nil
	}).Task(vurb.WithTaskTTL(24 * time.Hour)).Timeout(10 * time.Minute)

	res, _ := app.Call(context.Background(), "reports_build", []byte(`{"month":"2026-07"}`))
	fmt.Println(res.Content[0].(*mcp.TextContent).Text) // in-process: an ordinary call
	// Output: report for 2026-07
}
