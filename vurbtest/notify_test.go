package vurbtest_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/vurbtest"
)

func TestCancelWhen(t *testing.T) {
	noLeaks(t)
	for _, tc := range []struct {
		name string
		opts []vurbtest.Option
	}{
		{"memory", nil},
		{"memory sessionless", []vurbtest.Option{vurbtest.Protocol(vurbtest.Sessionless)}},
		{"http", []vurbtest.Option{vurbtest.OverHTTP()}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			w := newWaiter()
			c := vurbtest.New(t, w.app, tc.opts...)
			t.Cleanup(w.release) // before c's cleanup, which waits for the handler
			_, err := c.CallResult("jobs_wait", nil, vurbtest.CancelWhen(w.started))
			is.True(errors.Is(err, context.Canceled))
			select {
			case <-w.sawDone:
			case <-time.After(5 * time.Second):
				t.Fatal("the handler never saw the cancellation")
			}
		})
	}
}

// Over HTTP with no session (a stateless handler, or any 2026-07-28
// request) the client's notifications/cancelled has no session to reach;
// whether the handler learns of the cancellation depends on the server
// (vurb's own lane ties a call to its HTTP request; go-sdk v1.8.0's
// stateless handler does not). The client gives up at once either way.
func TestCancelWhenWithoutASession(t *testing.T) {
	noLeaks(t)
	for _, tc := range []struct {
		name string
		opts []vurbtest.Option
	}{
		{"http stateless", []vurbtest.Option{vurbtest.OverHTTP(), vurbtest.Serve(vurb.WithStateless())}},
		{"http sessionless", []vurbtest.Option{vurbtest.OverHTTP(), vurbtest.Protocol(vurbtest.Sessionless)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			w := newWaiter()
			c := vurbtest.New(t, w.app, tc.opts...)
			t.Cleanup(w.release) // before c's cleanup, which waits for the handler
			_, err := c.CallResult("jobs_wait", nil, vurbtest.CancelWhen(w.started))
			is.True(errors.Is(err, context.Canceled))
		})
	}
}

// waiter is an app whose jobs.wait closes started, then waits for its
// context to end (and closes sawDone) or for release.
type waiter struct {
	app                     *vurb.App
	started, sawDone, freed chan struct{}
	release                 func()
}

func newWaiter() *waiter {
	w := &waiter{started: make(chan struct{}), sawDone: make(chan struct{}), freed: make(chan struct{})}
	w.release = sync.OnceFunc(func() { close(w.freed) })
	w.app = vurb.New()
	vurb.Query(w.app, "jobs.wait", func(ctx context.Context, _ noInput) (string, error) {
		close(w.started)
		select {
		case <-ctx.Done():
			close(w.sawDone)
			return "", ctx.Err()
		case <-w.freed:
			return "released", nil
		}
	})
	return w
}

func TestNoLogsUnlessAsked(t *testing.T) {
	noLeaks(t)
	for _, rev := range []string{vurbtest.DefaultProtocol, vurbtest.Sessionless} {
		t.Run(rev, func(t *testing.T) {
			is := is.New(t)
			c := vurbtest.New(t, newApp(), vurbtest.Protocol(rev))
			is.Equal(c.CallText("jobs_run", nil), "done")
			is.Equal(len(c.Logs(0)), 0)

			debug := vurbtest.New(t, newApp(), vurbtest.Protocol(rev), vurbtest.LogLevel("debug"))
			is.Equal(debug.CallText("jobs_run", nil), "done")
			is.Equal(len(debug.Logs(2)), 2)
		})
	}
}

func TestResourceUpdates(t *testing.T) {
	noLeaks(t)
	is := is.New(t)
	app := newApp()
	c := vurbtest.New(t, app)
	is.NoErr(c.Session().Subscribe(context.Background(), &mcp.SubscribeParams{URI: "config://app"}))
	is.NoErr(app.NotifyResourceUpdated(context.Background(), "config://app"))
	is.Equal(c.ResourceUpdates(1), []string{"config://app"})
}
