package vurb_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/store"
)

// A served app is drained one of two ways, by the same code: its
// ListenAndServe's context ends, or Shutdown stops the user's own
// http.Server. Every test here runs both.

// drained is an app being served, and how to drain it.
type drained struct {
	base string // http://host:port of the server of /mcp, /livez and /readyz
	// drain starts the drain and returns its result once done:
	// ListenAndServe's, or Shutdown's.
	drain func() <-chan error
}

// serveWays are the two ways to serve an app and drain it within grace.
var serveWays = []struct {
	name  string
	serve func(t *testing.T, app *vurb.App, grace time.Duration) drained
}{
	{"ListenAndServe", serveListenAndServe},
	{"own server", serveOwnServer},
}

func serveListenAndServe(t *testing.T, app *vurb.App, grace time.Duration) drained {
	ln := listen(t)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	served := make(chan error, 1)
	go func() { served <- app.ServeListener(ctx, ln, vurb.WithShutdownGrace(grace)) }()
	return drained{base: "http://" + ln.Addr().String(), drain: func() <-chan error {
		cancel()
		return served
	}}
}

// serveOwnServer serves app behind the test's own http.Server, as the
// README's recipe does, and drains it with Shutdown.
func serveOwnServer(t *testing.T, app *vurb.App, grace time.Duration) drained {
	mux := http.NewServeMux()
	mux.Handle("/mcp", app.HTTPHandler())
	h := app.HealthHandler()
	mux.Handle("GET /livez", h)
	mux.Handle("GET /readyz", h)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	ln := listen(t)
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return drained{base: "http://" + ln.Addr().String(), drain: func() <-chan error {
		done := make(chan error, 1)
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), grace)
			defer cancel()
			done <- app.Shutdown(ctx, srv)
		}()
		return done
	}}
}

func listen(t *testing.T) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return ln
}

// healthBeside serves app's HealthHandler on a server of its own, as an
// admin port would: a draining server stops accepting, so its own
// /readyz is then out of reach (which fails a check as well).
func healthBeside(t *testing.T, app *vurb.App) string {
	side := httptest.NewServer(app.HealthHandler())
	t.Cleanup(side.Close)
	return side.URL
}

// probe is one answer of a health endpoint.
type probe struct {
	code int
	body struct {
		Status   string `json:"status"`
		Draining bool   `json:"draining"`
		Store    string `json:"store"`
	}
}

func getProbe(t *testing.T, url string) probe {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var p probe
	p.code = res.StatusCode
	raw, _ := io.ReadAll(res.Body)
	if err := json.Unmarshal(raw, &p.body); err != nil {
		t.Fatalf("%s: %v: %q", url, err, raw)
	}
	return p
}

// blockingTaskApp is an app whose tasks live in the memory store it
// returns, declaring jobs.wait, a task that returns when release is
// closed, or fails when its context ends.
func blockingTaskApp(started chan<- struct{}, release <-chan struct{}) (*vurb.App, *store.MemoryTasks) {
	mem := store.NewMemoryTasks(0)
	app := vurb.New(vurb.WithTasks(vurb.TaskConfig{Store: mem, TTL: time.Hour}))
	vurb.Mutation(app, "jobs.wait", func(ctx context.Context, _ struct{}) (string, error) {
		started <- struct{}{}
		select {
		case <-release:
			return "released", nil
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}).Task(vurb.WithTaskRequired())
	return app, mem
}

// startWaitTask starts jobs.wait over url and returns its id.
func startWaitTask(t *testing.T, url string) string {
	t.Helper()
	out, _, err := postJSONRPC(url, "", "2026-07-28", "tools/call", "jobs_wait",
		`{"name":"jobs_wait","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}}`)
	if err != nil {
		t.Fatal(err)
	}
	var created struct {
		ID string `json:"taskId"`
	}
	if err := json.Unmarshal(out.Result, &created); err != nil || created.ID == "" {
		t.Fatalf("no task created: %s (%v)", out.Result, err)
	}
	return created.ID
}

// TestReadinessTurnsOffWhileDrainingAndLivenessStays: readiness is 200
// while the app serves and 503 "draining" from the moment a drain starts,
// ListenAndServe's or Shutdown's, while liveness stays 200; a task running
// then finishes within the grace, recorded completed, and the drain waits
// for it.
func TestReadinessTurnsOffWhileDrainingAndLivenessStays(t *testing.T) {
	for _, way := range serveWays {
		t.Run(way.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			started, release := make(chan struct{}, 1), make(chan struct{})
			app, mem := blockingTaskApp(started, release)
			s := way.serve(t, app, 10*time.Second)
			side := healthBeside(t, app)

			for _, path := range []string{"/livez", "/readyz"} {
				p := getProbe(t, s.base+path)
				is.Equal(p.code, http.StatusOK)
				is.Equal(p.body.Draining, false)
				is.Equal(p.body.Store, "none") // one process, no shared store
			}
			is.Equal(getProbe(t, s.base+"/readyz").body.Status, "ready")
			id := startWaitTask(t, s.base+"/mcp")
			<-started

			stopped := s.drain()
			deadline := time.Now().Add(5 * time.Second)
			ready := getProbe(t, side+"/readyz")
			for ready.code == http.StatusOK && time.Now().Before(deadline) {
				time.Sleep(5 * time.Millisecond)
				ready = getProbe(t, side+"/readyz")
			}
			is.Equal(ready.code, http.StatusServiceUnavailable)
			is.Equal(ready.body.Status, "draining")
			is.True(ready.body.Draining)
			live := getProbe(t, side+"/livez")
			is.Equal(live.code, http.StatusOK)
			is.Equal(live.body.Status, "live")
			is.True(live.body.Draining)

			select {
			case err := <-stopped:
				t.Fatalf("the drain returned (%v) with a task running", err)
			case <-time.After(100 * time.Millisecond):
			}
			close(release)
			is.NoErr(<-stopped)
			rec, err := mem.Get(context.Background(), id)
			is.NoErr(err)
			is.Equal(rec.Status, store.TaskCompleted)
		})
	}
}

// TestDrainCutsTasksAtTheGraceEndRecordedFailed: a task still running
// when the grace ends is cut, and its record says the shutdown
// interrupted it; ListenAndServe returns nil, Shutdown its context's
// error, as http.Server.Shutdown does.
func TestDrainCutsTasksAtTheGraceEndRecordedFailed(t *testing.T) {
	for _, way := range serveWays {
		t.Run(way.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			started, release := make(chan struct{}, 1), make(chan struct{})
			defer close(release)
			app, mem := blockingTaskApp(started, release)
			s := way.serve(t, app, 300*time.Millisecond)
			id := startWaitTask(t, s.base+"/mcp")
			<-started

			begun := time.Now()
			err := <-s.drain()
			took := time.Since(begun)
			if way.name == "own server" {
				is.True(errors.Is(err, context.DeadlineExceeded))
			} else {
				is.NoErr(err)
			}
			is.True(took < 3*time.Second) // the grace, then the cut
			rec, err := mem.Get(context.Background(), id)
			is.NoErr(err)
			is.Equal(rec.Status, store.TaskFailed)
			is.True(strings.Contains(rec.StatusMessage, "shutdown"))
		})
	}
}

// TestDrainEndsSessionStreams: a handshake-era session's standing event
// stream never goes idle, so srv.Shutdown alone would wait for it until
// its context ended; the drain closes the sessions once their calls are
// answered, the stream ends, and the drain returns at once.
func TestDrainEndsSessionStreams(t *testing.T) {
	for _, way := range serveWays {
		t.Run(way.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			app := vurb.New()
			vurb.Query(app, "ping", func(context.Context, struct{}) (string, error) { return "pong", nil })
			s := way.serve(t, app, 10*time.Second)
			id, code := initializeSession(t, s.base+"/mcp")
			is.Equal(code, http.StatusOK)
			is.Equal(sessionStatus(t, s.base+"/mcp", id), http.StatusAccepted)

			// A standing stream of the session's, read to its end.
			req, _ := http.NewRequest(http.MethodGet, s.base+"/mcp", nil)
			req.Header.Set("Accept", "text/event-stream")
			req.Header.Set("Mcp-Session-Id", id)
			req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
			res, err := http.DefaultClient.Do(req)
			is.NoErr(err)
			defer res.Body.Close()
			is.Equal(res.StatusCode, http.StatusOK)
			ended := make(chan struct{})
			go func() {
				_, _ = io.Copy(io.Discard, res.Body)
				close(ended)
			}()

			begun := time.Now()
			is.NoErr(<-s.drain())
			is.True(time.Since(begun) < 3*time.Second) // not the 10 s grace
			select {
			case <-ended:
			case <-time.After(2 * time.Second):
				t.Fatal("the session's stream outlived the drain")
			}
		})
	}
}
