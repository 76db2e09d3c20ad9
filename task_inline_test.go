package vurb_test

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/observe"
	"github.com/vurb-go/vurb/store"
)

// A caller past its share of the task store still gets an answer to a
// call that may run as a task: the call runs without one, and says so in
// a log line and a TaskInline event, so the share's bite is seen.
func TestCallPastTheTaskShareRunsInlineAndSaysSo(t *testing.T) {
	is := is.New(t)
	var logs bytes.Buffer
	var mu sync.Mutex
	var inline []string
	app := vurb.New(vurb.WithLogger(slog.New(slog.NewTextHandler(&logs, nil))),
		vurb.WithObserver(func(_ context.Context, e observe.Event) {
			if e.Kind == observe.TaskInline {
				mu.Lock()
				inline = append(inline, e.Name)
				mu.Unlock()
			}
		}),
		vurb.WithTasks(vurb.TaskConfig{Store: store.NewMemoryTasks(100, store.WithPerCaller(1, 0))}))
	release := make(chan struct{})
	defer close(release)
	vurb.Query(app, "reports.build", func(ctx context.Context, _ struct{}) (string, error) {
		if _, ok := vurb.TaskID(ctx); ok {
			<-release // the first holds the caller's one place
		}
		return "built", nil
	}).Task()
	h := app.HTTPHandler()
	startTask(t, h, "reports_build")
	_, resp := taskRPC(t, h, tasksCaps, "tools/call", "reports_build", `"name":"reports_build","arguments":{}`)
	res := result(t, resp)
	is.True(res["resultType"] != "task") // answered at once
	mu.Lock()
	is.Equal(inline, []string{"reports_build"})
	mu.Unlock()
	is.True(strings.Contains(logs.String(), "the call runs without one"))
}
