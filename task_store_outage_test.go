package vurb_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/store"
)

// A task store that fails (issue #43, hole 8): what it says is for the
// server's log; a client reads only that the store is unavailable, on
// every path that touches it.

// storeSecret is what the failing store's errors name: the host a client
// must never learn.
const storeSecret = "redis-secret-host:6379"

// storeUnavailable is what a client reads instead.
const storeUnavailable = "the task store is unavailable; retry later"

// outageStore is a task store in memory whose backend goes down at will,
// failing as a Redis client does.
type outageStore struct {
	mem         *store.MemoryTasks
	down        atomic.Bool
	failUpdates atomic.Int32 // the next n Updates fail
}

func (s *outageStore) fail(op, id string) error {
	return fmt.Errorf("redisstate: %s task %q: dial tcp %s: Redis did not answer within 250ms (down, or too slow): %w",
		op, id, storeSecret, context.DeadlineExceeded)
}

func (s *outageStore) Create(ctx context.Context, t *store.Task) error {
	if s.down.Load() {
		return s.fail("create", t.ID)
	}
	return s.mem.Create(ctx, t)
}

func (s *outageStore) Get(ctx context.Context, id string) (*store.Task, error) {
	if s.down.Load() {
		return nil, s.fail("read", id)
	}
	return s.mem.Get(ctx, id)
}

func (s *outageStore) Update(ctx context.Context, id string, fn func(*store.Task) error) (*store.Task, error) {
	if s.down.Load() || s.failUpdates.Add(-1) >= 0 {
		return nil, s.fail("update", id)
	}
	return s.mem.Update(ctx, id, fn)
}

// outageApp is an app whose tasks live in store and whose log goes to
// log: "jobs.run" runs until released (or at once, {"quick":true});
// "jobs.later" becomes a task when it says so (StartTask); "jobs.status"
// sets its status first.
func outageApp(tasks store.Tasks, log *syncBuffer, release <-chan struct{}) *vurb.App {
	app := vurb.New(vurb.WithLogger(slog.New(slog.NewTextHandler(log, nil))),
		vurb.WithTasks(vurb.TaskConfig{Store: tasks, TTL: time.Minute}))
	vurb.Mutation(app, "jobs.run", func(ctx context.Context, in struct {
		Quick bool `json:"quick"`
	}) (string, error) {
		if !in.Quick {
			select {
			case <-release:
			case <-ctx.Done():
			}
		}
		return "ran", nil
	}).Task(vurb.WithTaskRequired())
	vurb.Mutation(app, "jobs.later", func(ctx context.Context, _ struct{}) (string, error) {
		if err := vurb.StartTask(ctx); err != nil {
			return "", err
		}
		return "later", nil
	}).Task(vurb.WithTaskDeferred())
	vurb.Mutation(app, "jobs.status", func(ctx context.Context, _ struct{}) (string, error) {
		if err := vurb.SetTaskStatus(ctx, "half way"); err != nil {
			return "", err
		}
		return "set", nil
	}).Task(vurb.WithTaskRequired())
	return app
}

// taskRPCError reads the JSON-RPC error of a (or fails).
func taskRPCError(t *testing.T, a rawAnswer) (code int64, message string) {
	t.Helper()
	var out struct {
		Error *struct {
			Code    int64  `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(a.body, &out); err != nil || out.Error == nil {
		t.Fatalf("no JSON-RPC error: %d %s", a.status, a.body)
	}
	return out.Error.Code, out.Error.Message
}

// tasksClient connects a go-sdk client of revision 2026-07-28 that
// declares the tasks extension.
func tasksClient(t *testing.T, url string) *mcp.ClientSession {
	t.Helper()
	caps := &mcp.ClientCapabilities{Extensions: map[string]any{vurb.TasksExtension: map[string]any{}}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "tasks-client", Version: "1"}, &mcp.ClientOptions{Capabilities: caps}).Connect(
		context.Background(), &mcp.StreamableClientTransport{Endpoint: url, DisableStandaloneSSE: true},
		&mcp.ClientSessionOptions{ProtocolVersion: "2026-07-28"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// TestTaskStoreOutageIsLoggedNotTold: on every path that meets the store,
// a failing store's error is logged, with what it said, and the client
// reads only the fixed text, as a JSON-RPC internal error.
func TestTaskStoreOutageIsLoggedNotTold(t *testing.T) {
	for _, c := range []struct {
		name string
		// ask makes the store fail as the case needs, asks, and returns
		// all the client read.
		ask func(t *testing.T, url string, st *outageStore) string
	}{
		{"tools/call that starts a task", func(t *testing.T, url string, st *outageStore) string {
			st.down.Store(true)
			return rpcErrorText(t, callTask(t, url, "jobs_run"))
		}},
		{"tools/call whose handler starts the task (StartTask)", func(t *testing.T, url string, st *outageStore) string {
			st.down.Store(true)
			return rpcErrorText(t, callTask(t, url, "jobs_later"))
		}},
		{"tools/call that starts a task, from a go-sdk client", func(t *testing.T, url string, st *outageStore) string {
			st.down.Store(true)
			_, err := tasksClient(t, url).CallTool(context.Background(), &mcp.CallToolParams{Name: "jobs_run", Arguments: map[string]any{}})
			if err == nil {
				t.Fatal("the call succeeded with the store down")
			}
			return err.Error()
		}},
		{"tasks/get", func(t *testing.T, url string, st *outageStore) string {
			id := startTaskAs(t, url, "", "jobs_run", `{}`)
			st.down.Store(true)
			return rpcErrorText(t, taskAs(t, url, "", "tasks/get", id))
		}},
		{"tasks/update", func(t *testing.T, url string, st *outageStore) string {
			id := startTaskAs(t, url, "", "jobs_run", `{}`)
			st.down.Store(true)
			return rpcErrorText(t, taskAs(t, url, "", "tasks/update", id))
		}},
		{"tasks/cancel", func(t *testing.T, url string, st *outageStore) string {
			id := startTaskAs(t, url, "", "jobs_run", `{}`)
			st.down.Store(true)
			return rpcErrorText(t, taskAs(t, url, "", "tasks/cancel", id))
		}},
		{"the result of a task whose SetTaskStatus failed", func(t *testing.T, url string, st *outageStore) string {
			st.failUpdates.Store(1)
			id := startTaskAs(t, url, "", "jobs_status", `{}`)
			for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
				a := taskAs(t, url, "", "tasks/get", id)
				if !strings.Contains(string(a.body), `"status":"working"`) {
					return string(a.body)
				}
				if time.Now().After(deadline) {
					t.Fatalf("the task never ended: %s", a.body)
				}
			}
		}},
	} {
		for _, path := range []struct {
			name string
			opts []vurb.ServeOption
		}{{"", nil}, {", without the fast lane", []vurb.ServeOption{vurb.WithFastLane(false)}}} {
			t.Run(c.name+path.name, func(t *testing.T) {
				is := is.New(t)
				release := make(chan struct{})
				defer close(release)
				var log syncBuffer
				st := &outageStore{mem: store.NewMemoryTasks(0)}
				st.failUpdates.Store(-1 << 30)
				srv := httptest.NewServer(outageApp(st, &log, release).HTTPHandler(path.opts...))
				defer srv.Close()

				told := c.ask(t, srv.URL, st)
				is.True(!strings.Contains(told, "redis-secret-host")) // the store's words stay in the log
				if !strings.Contains(told, storeUnavailable) {
					t.Errorf("the client read %q, not %q", told, storeUnavailable)
				}
				waitLogged(t, &log, storeSecret)
			})
		}
	}
}

// callTask sends a tools/call of tool by a client that declared the tasks
// extension.
func callTask(t *testing.T, url, tool string) rawAnswer {
	t.Helper()
	return rawPost(t, url, "", "2026-07-28", "", "tools/call", tool,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"`+tool+`","arguments":{},`+tasksMeta+`}}`)
}

// rpcErrorText returns a's JSON-RPC error as the client reads it, having
// checked it is an internal error.
func rpcErrorText(t *testing.T, a rawAnswer) string {
	t.Helper()
	code, message := taskRPCError(t, a)
	if code != -32603 {
		t.Errorf("code %d, not -32603 (internal error): %s", code, a.body)
	}
	return string(a.body) + " " + message
}

// waitLogged waits until the log holds text: the server logs a failure
// it met on a task's goroutine when that goroutine gets to it.
func waitLogged(t *testing.T, log *syncBuffer, text string) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !strings.Contains(log.String(), text); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the log does not say %q:\n%s", text, log.String())
		}
	}
}
