package redisstate_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/redis/go-redis/v9"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/redisstate"
)

// Two replicas of one server behind a balancer with no affinity: two apps
// built the same way, each with its own Redis client and store, the same
// request-state key. A task started through one is seen, answered,
// cancelled and completed through the other, as raw 2026-07-28 JSON-RPC
// over HTTP.

// confirm is what the task of jobs.ask asks the client.
type confirm struct {
	Yes bool `json:"yes" description:"Go on?"`
}

// replica is one replica's HTTP handler. release lets jobs.slow finish.
func replica(t *testing.T, client *redis.Client, key []byte, release <-chan struct{}) http.Handler {
	t.Helper()
	app := vurb.New(vurb.WithLogger(slog.New(slog.DiscardHandler)), vurb.WithRequestStateKeys(key),
		vurb.WithTasks(vurb.TaskConfig{Store: redisstate.New(client).Tasks()}))
	vurb.Query(app, "jobs.slow", func(ctx context.Context, _ struct{}) (string, error) {
		if err := vurb.SetTaskStatus(ctx, "half way"); err != nil {
			return "", err
		}
		select {
		case <-release:
			return "done", nil
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}).Task()
	vurb.Action(app, "jobs.ask", func(ctx context.Context, _ struct{}) (string, error) {
		ok, err := vurb.Ask[confirm](ctx, "confirm", "Go on?")
		if err != nil {
			return "", err
		}
		return fmt.Sprint("confirmed=", ok.Yes), nil
	}).Task()
	return app.HTTPHandler()
}

const tasksCaps = `{"elicitation":{},"extensions":{"io.modelcontextprotocol/tasks":{}}}`

// rpc sends one 2026-07-28 request to h and returns the JSON-RPC result,
// failing on an error.
func rpc(t *testing.T, h http.Handler, method, name, params string) map[string]any {
	t.Helper()
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":` + tasksCaps + `}`
	body := `{"jsonrpc":"2.0","id":7,"method":"` + method + `","params":{` + params + `,` + meta + `}}`
	req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", method)
	req.Header.Set("Mcp-Name", name)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	data := bytes.TrimSpace(w.Body.Bytes())
	if i := bytes.Index(data, []byte("data: ")); i >= 0 {
		data = data[i+len("data: "):]
	}
	var resp struct {
		Result map[string]any `json:"result"`
		Error  any            `json:"error"`
	}
	if err := json.Unmarshal(data, &resp); err != nil || resp.Result == nil {
		t.Fatalf("%s: %d %s (%v)", method, w.Code, w.Body.String(), err)
	}
	return resp.Result
}

func start(t *testing.T, h http.Handler, tool string) string {
	t.Helper()
	res := rpc(t, h, "tools/call", tool, `"name":"`+tool+`","arguments":{}`)
	if res["resultType"] != "task" {
		t.Fatalf("%s: not a task: %v", tool, res)
	}
	return res["taskId"].(string)
}

// poll asks h for the task until ready says it is, or fails after 5 s.
func poll(t *testing.T, h http.Handler, id string, ready func(task map[string]any) bool) map[string]any {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); ; {
		task := rpc(t, h, "tasks/get", id, `"taskId":"`+id+`"`)
		if ready(task) {
			return task
		}
		if time.Now().After(deadline) {
			t.Fatalf("task %s: %v", id, task)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func status(want string) func(map[string]any) bool {
	return func(task map[string]any) bool { return task["status"] == want }
}

func text(task map[string]any) string {
	content := task["result"].(map[string]any)["content"].([]any)
	return content[0].(map[string]any)["text"].(string)
}

func TestTaskStartedOnOneReplicaPolledOnTheOther(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := startRedis(t)
	key := bytes.Repeat([]byte{7}, 32)
	release := make(chan struct{})
	first, second := replica(t, srv.client(t), key, release), replica(t, srv.client(t), key, release)

	id := start(t, first, "jobs_slow")
	working := poll(t, second, id, func(task map[string]any) bool { return task["statusMessage"] == "half way" })
	is.Equal(working["status"], "working")
	close(release)
	done := poll(t, second, id, status("completed"))
	is.Equal(text(done), "done")
	is.Equal(rpc(t, first, "tasks/get", id, `"taskId":"`+id+`"`)["status"], "completed") // and on the first
}

// The task waits for input on the replica that ran it; the client's answer
// reaches the other, which resumes the call; the first reads the outcome.
func TestTaskAnsweredOnTheOtherReplica(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := startRedis(t)
	key := bytes.Repeat([]byte{7}, 32)
	first, second := replica(t, srv.client(t), key, nil), replica(t, srv.client(t), key, nil)

	id := start(t, first, "jobs_ask")
	waiting := poll(t, second, id, status("input_required"))
	is.True(waiting["inputRequests"].(map[string]any)["confirm"] != nil)
	ack := rpc(t, second, "tasks/update", id, `"taskId":"`+id+`","inputResponses":{"confirm":{"action":"accept","content":{"yes":true}}}`)
	is.Equal(ack["resultType"], "complete")
	done := poll(t, first, id, status("completed"))
	is.Equal(text(done), "confirmed=true")
}

// A task cancelled through the other replica is cancelled for both at
// once, and stays so when the call running on the first returns.
func TestTaskCancelledOnTheOtherReplica(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := startRedis(t)
	key := bytes.Repeat([]byte{7}, 32)
	release := make(chan struct{})
	first, second := replica(t, srv.client(t), key, release), replica(t, srv.client(t), key, release)

	id := start(t, first, "jobs_slow")
	poll(t, second, id, func(task map[string]any) bool { return task["statusMessage"] == "half way" })
	rpc(t, second, "tasks/cancel", id, `"taskId":"`+id+`"`)
	is.Equal(rpc(t, first, "tasks/get", id, `"taskId":"`+id+`"`)["status"], "cancelled")
	close(release)
	time.Sleep(50 * time.Millisecond) // the first's call returns "done"
	is.Equal(rpc(t, second, "tasks/get", id, `"taskId":"`+id+`"`)["status"], "cancelled")
}
