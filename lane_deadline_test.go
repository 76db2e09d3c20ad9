package vurb_test

import (
	"context"
	"log/slog"
	"net"
	"net/http/httptest"
	"regexp"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/vurbtest"
)

// The lanes run a handler on the request's goroutine, and answer for it
// from a watch when its deadline comes first. These hold what a client of
// each lane sees over real HTTP: the timeout at the deadline while the
// handler runs on, the next call answered at once, a handler ended by
// runtime.Goexit answered as an internal error.

// laneClients are the clients whose calls the lanes answer: a
// handshake-era session (the session lane), a sessionless client, and a
// handshake-era client of a stateless server (the fast lane).
var laneClients = []struct {
	name      string
	version   string
	stateless bool
}{
	{"session", "2025-11-25", false},
	{"sessionless", vurbtest.Sessionless, false},
	{"stateless", "2025-11-25", true},
}

// laneClient connects a go-sdk client of the given revision to app served
// over HTTP.
func laneClient(t *testing.T, app *vurb.App, version string, stateless bool) *mcp.ClientSession {
	t.Helper()
	var opts []vurb.ServeOption
	if stateless {
		opts = append(opts, vurb.WithStateless())
	}
	srv := httptest.NewServer(app.HTTPHandler(opts...))
	t.Cleanup(srv.Close)
	client := mcp.NewClient(&mcp.Implementation{Name: "lane-deadline", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: srv.URL},
		&mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func TestLanesAnswerTheDeadlineWhileTheHandlerRunsOn(t *testing.T) {
	for _, lc := range laneClients {
		t.Run(lc.name, func(t *testing.T) {
			is := is.New(t)
			release := make(chan struct{})
			var returned atomic.Bool
			app := vurb.New(vurb.WithLogger(slog.New(slog.DiscardHandler)))
			vurb.Query(app, "jobs.stuck", func(context.Context, noInput) (string, error) {
				<-release // ignores its context
				returned.Store(true)
				return "late", nil
			}).Timeout(100 * time.Millisecond)
			vurb.Query(app, "jobs.ping", ok[noInput]("pong"))
			cs := laneClient(t, app, lc.version, lc.stateless)
			released := false
			defer func() {
				if !released {
					close(release)
				}
			}()

			// Calls answered in time leave their deadline's timer for the
			// next call: the stuck call below is watched by one of theirs.
			for range 3 {
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "jobs_ping", Arguments: map[string]any{}})
				is.NoErr(err)
				is.Equal(text(res), "pong")
			}
			start := time.Now()
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "jobs_stuck", Arguments: map[string]any{}})
			is.NoErr(err)
			is.True(res.IsError)
			is.Equal(text(res), timeoutText(vurb.Flat, "jobs", "stuck", 100*time.Millisecond))
			is.True(time.Since(start) < 5*time.Second) // answered at the deadline, not when the handler returns
			is.True(!returned.Load())
			is.Equal(app.HandlerStats(), vurb.HandlerStats{Running: 1, Overdue: 1})

			// The stuck handler still holds its request's connection; the
			// client's next call goes on another and is answered at once.
			for range 3 {
				res, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "jobs_ping", Arguments: map[string]any{}})
				is.NoErr(err)
				is.Equal(text(res), "pong")
			}
			is.True(!returned.Load())

			close(release)
			released = true
			waitFor(t, func() bool { return returned.Load() && app.HandlerStats() == vurb.HandlerStats{} })
		})
	}
}

func TestLanesAnswerAGoexitAsAnInternalError(t *testing.T) {
	internal := regexp.MustCompile(`^\[jobs_exit\] internal error \(ref \w+\); the server has logged the details$`)
	for _, lc := range laneClients {
		t.Run(lc.name, func(t *testing.T) {
			is := is.New(t)
			app := vurb.New(vurb.WithLogger(slog.New(slog.DiscardHandler)))
			vurb.Query(app, "jobs.exit", func(context.Context, noInput) (string, error) {
				runtime.Goexit()
				return "unreachable", nil
			}).Timeout(time.Minute) // the call must not wait for it
			vurb.Query(app, "jobs.ping", ok[noInput]("pong"))
			cs := laneClient(t, app, lc.version, lc.stateless)

			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "jobs_exit", Arguments: map[string]any{}})
			is.NoErr(err)
			is.True(res.IsError)
			is.True(internal.MatchString(text(res)))
			res, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "jobs_ping", Arguments: map[string]any{}})
			is.NoErr(err)
			is.Equal(text(res), "pong")
			is.Equal(app.HandlerStats().Running, 0) // the exited handler gave its slot back
		})
	}
}

func TestLanesAnswerTheCutWhileTheHandlerRunsOn(t *testing.T) {
	for _, lc := range laneClients {
		t.Run(lc.name, func(t *testing.T) {
			is := is.New(t)
			release := make(chan struct{})
			defer close(release)
			started := make(chan struct{}, 1)
			app := vurb.New(vurb.WithLogger(slog.New(slog.DiscardHandler)))
			vurb.Query(app, "jobs.stuck", func(context.Context, noInput) (string, error) {
				started <- struct{}{}
				<-release // ignores its context, the cut's included
				return "late", nil
			}).Timeout(time.Minute)
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			is.NoErr(err)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			opts := []vurb.ServeOption{vurb.WithShutdownGrace(200 * time.Millisecond)}
			if lc.stateless {
				opts = append(opts, vurb.WithStateless())
			}
			served := make(chan error, 1)
			go func() { served <- app.ServeListener(ctx, ln, opts...) }()
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).
				Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: "http://" + ln.Addr().String() + "/mcp"},
					&mcp.ClientSessionOptions{ProtocolVersion: lc.version})
			is.NoErr(err)
			defer cs.Close()
			answer := make(chan *mcp.CallToolResult, 1)
			go func() {
				res, _ := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "jobs_stuck", Arguments: map[string]any{}})
				answer <- res
			}()
			<-started
			start := time.Now()
			cancel()
			select {
			case res := <-answer:
				is.True(res != nil && res.IsError)
				is.True(strings.Contains(text(res), "shutting down")) // answered as cut
			case <-time.After(5 * time.Second):
				t.Fatal("the cut call was not answered while its handler ran on")
			}
			select {
			case err := <-served:
				is.NoErr(err)
			case <-time.After(5 * time.Second):
				t.Fatal("the server did not stop while a cut handler ran on")
			}
			// The handler still holds its connection: the shutdown waits for
			// it as for any request, up to twice cutAnswers (1 s), then
			// closes it.
			is.True(time.Since(start) < 3*time.Second)
		})
	}
}
