package vurb_test

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/store"
)

// TestTaskStoreFull: past the store's bound, an action that may run
// synchronously does; a task-only one is refused.
func TestTaskStoreFull(t *testing.T) {
	is := is.New(t)
	app := vurb.New(vurb.WithLogger(slog.New(slog.DiscardHandler)),
		vurb.WithTasks(vurb.TaskConfig{Store: store.NewMemoryTasks(1), TTL: time.Minute}))
	release := make(chan struct{})
	defer close(release)
	vurb.Query(app, "jobs.quick", func(context.Context, struct{}) (string, error) { return "quick", nil }).Task()
	vurb.Query(app, "jobs.only", func(context.Context, struct{}) (string, error) { <-release; return "ran", nil }).Task(vurb.WithTaskRequired())
	h := app.HTTPHandler()

	first := startTask(t, h, "jobs_only")
	is.Equal(waitTask(t, h, first, "working")["ttlMs"], float64(60000))
	_, resp := taskRPC(t, h, tasksCaps, "tools/call", "jobs_only", `"name":"jobs_only","arguments":{}`)
	is.Equal(rpcCode(resp), float64(-32603)) // task-only, and no room
	_, resp = taskRPC(t, h, tasksCaps, "tools/call", "jobs_quick", `"name":"jobs_quick","arguments":{}`)
	res := result(t, resp)
	is.Equal(res["resultType"], "complete") // served synchronously instead
	is.Equal(textOfResult(t, res), "quick")
}
