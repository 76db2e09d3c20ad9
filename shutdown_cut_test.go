package vurb_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/store"
)

// TestCallsCutAtTheEndOfTheGraceAreLogged: a call still running when the
// shutdown grace ends once left no trace (the client got a bare EOF).
func TestCallsCutAtTheEndOfTheGraceAreLogged(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	var log syncBuffer
	started := make(chan string, 1)
	release := make(chan struct{})
	defer close(release)
	app := vurb.New(vurb.WithLogger(slog.New(slog.NewTextHandler(&log, nil))))
	vurb.Query(app.Tool("ops"), "stuck", func(ctx context.Context, _ struct{}) (string, error) {
		started <- vurb.CallFrom(ctx).RequestID()
		<-release // ignores its context
		return "never", nil
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	is.NoErr(err)
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- app.ServeListener(ctx, ln, vurb.WithShutdownGrace(200*time.Millisecond)) }()

	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).
		Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: "http://" + ln.Addr().String() + "/mcp"}, nil)
	is.NoErr(err)
	defer cs.Close()
	go func() {
		_, _ = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "ops_stuck", Arguments: map[string]any{}})
	}()
	id := <-started
	cancel()
	is.NoErr(<-served)

	want := "call cut at the end of the shutdown grace period"
	deadline := time.Now().Add(3 * time.Second)
	for !strings.Contains(log.String(), want) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	got := log.String()
	is.True(strings.Contains(got, want))
	is.True(strings.Contains(got, "request_id="+id))
}

// TestShutdownGraceCutsEveryRevision holds the README's word on both
// protocol revisions: a call still running when WithShutdownGrace ends is cut
// through its context, answered as cut, and logged once with its request
// id, and ListenAndServe returns soon after the grace (a 2025-11-25 session
// held it for the whole 5 s handler).
func TestShutdownGraceCutsEveryRevision(t *testing.T) {
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(version, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			var log syncBuffer
			started := make(chan string, 1)
			cancelled := make(chan struct{})
			app := vurb.New(vurb.WithLogger(slog.New(slog.NewTextHandler(&log, nil))))
			vurb.Query(app.Tool("ops"), "slow", func(ctx context.Context, _ struct{}) (string, error) {
				started <- vurb.CallFrom(ctx).RequestID()
				select {
				case <-ctx.Done():
					close(cancelled)
				case <-time.After(5 * time.Second):
				}
				return "done", nil
			})
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			is.NoErr(err)
			ctx, cancel := context.WithCancel(context.Background())
			served := make(chan error, 1)
			go func() { served <- app.ServeListener(ctx, ln, vurb.WithShutdownGrace(300*time.Millisecond)) }()
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).
				Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: "http://" + ln.Addr().String() + "/mcp"},
					&mcp.ClientSessionOptions{ProtocolVersion: version})
			is.NoErr(err)
			defer cs.Close()
			answer := make(chan *mcp.CallToolResult, 1)
			go func() {
				res, _ := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "ops_slow", Arguments: map[string]any{}})
				answer <- res
			}()
			id := <-started
			start := time.Now()
			cancel()
			is.NoErr(<-served)
			took := time.Since(start)
			t.Logf("ListenAndServe returned %s after the cancel", took.Round(time.Millisecond))
			is.True(took < 2*time.Second) // the grace, then the cut: not the handler's 5 s
			select {
			case <-cancelled: // the handler's context was cancelled
			case <-time.After(time.Second):
				t.Fatal("the handler's context was never cancelled")
			}
			if res := <-answer; res != nil { // answered as cut, when the answer got out
				is.True(res.IsError)
				is.True(strings.Contains(res.Content[0].(*mcp.TextContent).Text, "shutting down"))
			}
			want := "call cut at the end of the shutdown grace period"
			deadline := time.Now().Add(2 * time.Second)
			for !strings.Contains(log.String(), want) && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			is.Equal(strings.Count(log.String(), want), 1) // logged once
			is.True(strings.Contains(log.String(), "request_id="+id))
		})
	}
}

// TestShutdownWaitsForTasksThenCutsThem: tasks running at shutdown get the
// grace to finish; those still running when it ends fail saying the
// shutdown interrupted them, each logged once with its id.
func TestShutdownWaitsForTasksThenCutsThem(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	var log syncBuffer
	mem := store.NewMemoryTasks(0)
	app := vurb.New(vurb.WithLogger(slog.New(slog.NewTextHandler(&log, nil))),
		vurb.WithTasks(vurb.TaskConfig{Store: mem, TTL: time.Hour}))
	var finished atomic.Int32
	vurb.Mutation(app, "jobs.run", func(ctx context.Context, in struct {
		Millis int `json:"millis"`
	}) (string, error) {
		select {
		case <-time.After(time.Duration(in.Millis) * time.Millisecond):
			finished.Add(1)
			return "ran", nil
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}).Task(vurb.WithTaskRequired())
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	is.NoErr(err)
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- app.ServeListener(ctx, ln, vurb.WithShutdownGrace(600*time.Millisecond)) }()
	url := "http://" + ln.Addr().String() + "/mcp"
	var ids []string
	for i := range 20 {
		millis := 100 // within the grace
		if i%4 == 0 {
			millis = 10_000 // past it
		}
		out, _, err := postJSONRPC(url, "", "2026-07-28", "tools/call", "jobs_run",
			fmt.Sprintf(`{"name":"jobs_run","arguments":{"millis":%d},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}}`, millis))
		is.NoErr(err)
		var created struct {
			ID string `json:"taskId"`
		}
		is.NoErr(json.Unmarshal(out.Result, &created))
		ids = append(ids, created.ID)
	}
	cancel()
	is.NoErr(<-served)
	is.Equal(finished.Load(), int32(15)) // every task that could finish in the grace did
	failed := 0
	for _, id := range ids {
		rec, err := mem.Get(context.Background(), id)
		is.NoErr(err)
		if rec.Status == store.TaskFailed {
			failed++
			is.True(strings.Contains(rec.StatusMessage, "shutdown"))
		} else {
			is.Equal(rec.Status, store.TaskCompleted)
		}
	}
	is.Equal(failed, 5)
	is.Equal(strings.Count(log.String(), "task cut at the end of the shutdown grace period"), 5) // each once
}
