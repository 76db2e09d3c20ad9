package vurb_test

import (
	"context"
	"log/slog"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/observe"
)

// TestRunningHandlersAreBounded fires 2,000 calls at a handler that
// ignores its context: before the bound, every one of them left a
// goroutine running, unseen. Now at most WithMaxRunning run, the others
// are answered busy at once, and the overdue ones are counted and
// reported.
func TestRunningHandlersAreBounded(t *testing.T) {
	// Not parallel: it counts the process's goroutines.
	is := is.New(t)
	const bound, calls = 100, 2_000
	release := make(chan struct{})
	var overdue, returned atomic.Int32
	app := vurb.New(vurb.WithTimeout(200*time.Millisecond), vurb.WithMaxRunning(bound),
		vurb.WithLogger(slog.New(slog.DiscardHandler)),
		vurb.WithObserver(func(_ context.Context, e observe.Event) {
			switch e.Kind {
			case observe.HandlerOverdue:
				overdue.Add(1)
			case observe.HandlerReturned:
				returned.Add(1)
			}
		}))
	vurb.Query(app.Tool("slow"), "ignore", func(context.Context, struct{}) (string, error) {
		<-release // ignores its context
		return "late", nil
	})
	app.Build()
	before := runtime.NumGoroutine()

	var wg sync.WaitGroup
	var busy, timedOut atomic.Int32
	for range calls {
		wg.Go(func() {
			res, err := app.Call(context.Background(), "slow_ignore", nil)
			if err != nil {
				t.Error(err)
				return
			}
			text := res.Content[0].(*mcp.TextContent).Text
			switch {
			case strings.Contains(text, "the server is busy: 100 handlers are already running"):
				busy.Add(1)
			case strings.Contains(text, "timed out after 200ms"):
				timedOut.Add(1)
			default:
				t.Errorf("unexpected answer %q", text)
			}
		})
	}
	wg.Wait()
	is.Equal(int(busy.Load()), calls-bound)
	is.Equal(int(timedOut.Load()), bound)
	stats := app.HandlerStats()
	is.Equal(stats.Running, bound)
	is.Equal(stats.Overdue, bound)
	is.Equal(int(overdue.Load()), bound)
	if extra := runtime.NumGoroutine() - before; extra > bound+50 {
		t.Errorf("%d goroutines more after 2,000 calls; want about %d", extra, bound)
	}

	close(release)
	deadline := time.Now().Add(5 * time.Second)
	for app.HandlerStats() != (vurb.HandlerStats{}) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	is.Equal(app.HandlerStats(), vurb.HandlerStats{})
	is.Equal(int(returned.Load()), bound)
}

// The app's per-action cap (WithMaxConcurrent) refuses a third call of an
// action that has two running, and holds back no other action.
func TestMaxConcurrentPerAction(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	release := make(chan struct{})
	started := make(chan struct{}, 2)
	app := vurb.New(vurb.WithMaxConcurrent(2, 0))
	vurb.Query(app.Tool("t"), "slow", func(context.Context, struct{}) (string, error) {
		started <- struct{}{}
		<-release
		return "slow", nil
	})
	vurb.Query(app.Tool("t"), "quick", func(context.Context, struct{}) (string, error) { return "quick", nil })
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() { _, _ = app.Call(context.Background(), "t_slow", nil) })
	}
	<-started
	<-started
	res, err := app.Call(context.Background(), "t_slow", nil)
	is.NoErr(err)
	is.True(res.IsError)
	is.Equal(res.Content[0].(*mcp.TextContent).Text, "[t_slow] this action's limit of concurrent calls (2) is reached and none ended within 0s; retry in a few seconds")
	res, err = app.Call(context.Background(), "t_quick", nil) // the other actions are not held back
	is.NoErr(err)
	is.Equal(res.Content[0].(*mcp.TextContent).Text, "quick")
	close(release)
	wg.Wait()
}

// The busy answer is one of the app's texts, reworded with WithMessages.
func TestBusyMessageIsTheApps(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	release := make(chan struct{})
	started := make(chan struct{})
	app := vurb.New(vurb.WithMaxRunning(1), vurb.WithMessages(vurb.Messages{Busy: "busy (%d running): come back later"}))
	vurb.Query(app.Tool("t"), "slow", func(context.Context, struct{}) (string, error) {
		close(started)
		<-release
		return "slow", nil
	})
	done := make(chan struct{})
	go func() { _, _ = app.Call(context.Background(), "t_slow", nil); close(done) }()
	<-started
	res, err := app.Call(context.Background(), "t_slow", nil)
	is.NoErr(err)
	is.Equal(res.Content[0].(*mcp.TextContent).Text, "[t_slow] busy (1 running): come back later")
	close(release)
	<-done
}
