package vurb_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
)

// The tasks extension end to end: raw 2026-07-28 JSON-RPC over HTTP, as a
// client that declares (or not) io.modelcontextprotocol/tasks sends it.

// taskApp is an app with one action per kind of task. release lets "jobs
// slow" finish; cancelled receives when its context ends first.
func taskApp(release <-chan struct{}, cancelled chan<- error) *vurb.App {
	app := vurb.New(vurb.WithLogger(slog.New(slog.DiscardHandler)))
	vurb.Query(app, "jobs.slow", func(ctx context.Context, _ struct{}) (string, error) {
		if err := vurb.SetTaskStatus(ctx, "half way"); err != nil {
			return "", err
		}
		select {
		case <-release:
			return "done", nil
		case <-ctx.Done():
			cancelled <- ctx.Err()
			return "", ctx.Err()
		}
	}).Task()
	vurb.Action(app, "jobs.ask", func(ctx context.Context, _ struct{}) (string, error) {
		ok, err := vurb.Ask[Confirm](ctx, "confirm", "Go on?")
		if err != nil {
			return "", err
		}
		return fmt.Sprint("confirmed=", ok.Yes), nil
	}).Task()
	vurb.Action(app, "jobs.crash", func(context.Context, struct{}) (string, error) {
		return "", &jsonrpc.Error{Code: -32099, Message: "the job crashed"}
	}).Task()
	vurb.Action(app, "jobs.fail", func(context.Context, struct{}) (string, error) {
		return "", errors.New("bad input, try again")
	}).Task(vurb.WithTaskRequired(), vurb.WithTaskTTL(2*time.Minute), vurb.WithTaskPollInterval(250*time.Millisecond))
	vurb.Action(app, "jobs.later", func(ctx context.Context, _ struct{}) (string, error) {
		who, err := vurb.Ask[ProjectRef](ctx, "project", "Which project?")
		if err != nil {
			return "", err
		}
		if err := vurb.StartTask(ctx); err != nil {
			return "", err
		}
		id, _ := vurb.TaskID(ctx)
		return "built " + who.ID + " in a task: " + fmt.Sprint(id != ""), nil
	}).Task(vurb.WithTaskDeferred())
	vurb.Query(app, "jobs.sync", func(context.Context, struct{}) (string, error) { return "sync", nil })
	return app
}

const tasksCaps = `{"elicitation":{},"extensions":{"io.modelcontextprotocol/tasks":{}}}`

// taskRPC sends one 2026-07-28 request and returns the HTTP status and the
// JSON-RPC response.
func taskRPC(t *testing.T, h http.Handler, caps, method, name, params string) (int, map[string]any) {
	t.Helper()
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":` + caps + `}`
	if params != "" {
		params += ","
	}
	body := `{"jsonrpc":"2.0","id":7,"method":"` + method + `","params":{` + params + meta + `}}`
	req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", method)
	if name != "" {
		req.Header.Set("Mcp-Name", name)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	if ct := w.Header().Get("Content-Type"); ct != "application/json" && ct != "text/event-stream" {
		t.Fatalf("%s: Content-Type %q: a client reads the answer by it", method, ct)
	}
	data := bytes.TrimSpace(w.Body.Bytes())
	if i := bytes.Index(data, []byte("data: ")); i >= 0 {
		data = data[i+len("data: "):]
	}
	var resp map[string]any
	if err := json.Unmarshal(data, &resp); err != nil {
		t.Fatalf("%s: %d %q: %v", method, w.Code, w.Body.String(), err)
	}
	return w.Code, resp
}

// result returns the response's result, failing on an error.
func result(t *testing.T, resp map[string]any) map[string]any {
	t.Helper()
	res, ok := resp["result"].(map[string]any)
	if !ok {
		t.Fatalf("no result: %v", resp)
	}
	return res
}

// rpcCode returns the response's error code, or 0.
func rpcCode(resp map[string]any) float64 {
	if e, ok := resp["error"].(map[string]any); ok {
		return e["code"].(float64)
	}
	return 0
}

func startTask(t *testing.T, h http.Handler, tool string) string {
	t.Helper()
	_, resp := taskRPC(t, h, tasksCaps, "tools/call", tool, `"name":"`+tool+`","arguments":{}`)
	res := result(t, resp)
	if res["resultType"] != "task" {
		t.Fatalf("%s: not a task: %v", tool, res)
	}
	return res["taskId"].(string)
}

func getTask(t *testing.T, h http.Handler, id string) map[string]any {
	t.Helper()
	_, resp := taskRPC(t, h, tasksCaps, "tasks/get", id, `"taskId":"`+id+`"`)
	return result(t, resp)
}

// waitTask polls until the task's status is one of want.
func waitTask(t *testing.T, h http.Handler, id string, want ...string) map[string]any {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		task := getTask(t, h, id)
		for _, s := range want {
			if task["status"] == s {
				return task
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("task %s is %v, not %v", id, task["status"], want)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func textOfResult(t *testing.T, res any) string {
	t.Helper()
	content := res.(map[string]any)["content"].([]any)
	return content[0].(map[string]any)["text"].(string)
}

func TestTaskStartedPolledCompleted(t *testing.T) {
	is := is.New(t)
	release := make(chan struct{})
	h := taskApp(release, make(chan error, 1)).HTTPHandler()

	_, resp := taskRPC(t, h, tasksCaps, "tools/call", "jobs_slow", `"name":"jobs_slow","arguments":{}`)
	created := result(t, resp)
	is.Equal(created["resultType"], "task")
	is.Equal(created["status"], "working")
	is.Equal(created["ttlMs"], float64(time.Hour.Milliseconds())) // the app's default
	is.Equal(created["pollIntervalMs"], float64(1000))
	for _, absent := range []string{"result", "error", "inputRequests", "requestState", "task"} {
		_, there := created[absent]
		is.True(!there) // a CreateTaskResult is the task alone
	}
	id := created["taskId"].(string)

	working := waitTask(t, h, id, "working")
	is.Equal(working["resultType"], "complete")
	is.Equal(working["taskId"], id)
	_, hasResult := working["result"]
	is.True(!hasResult)

	close(release)
	done := waitTask(t, h, id, "completed")
	is.Equal(textOfResult(t, done["result"]), "done")
	is.Equal(done["createdAt"], created["createdAt"])
}

func TestTaskCancelled(t *testing.T) {
	is := is.New(t)
	cancelled := make(chan error, 1)
	app := taskApp(make(chan struct{}), cancelled)
	h, other := app.HTTPHandler(), app.HTTPHandler() // the app's handlers share its tasks
	id := startTask(t, h, "jobs_slow")
	for deadline := time.Now().Add(5 * time.Second); getTask(t, h, id)["statusMessage"] != "half way"; {
		if time.Now().After(deadline) {
			t.Fatal("no statusMessage from SetTaskStatus")
		}
		time.Sleep(5 * time.Millisecond)
	}

	_, resp := taskRPC(t, other, tasksCaps, "tasks/cancel", id, `"taskId":"`+id+`"`)
	ack := result(t, resp)
	is.Equal(ack["resultType"], "complete")
	_, hasStatus := ack["status"]
	is.True(!hasStatus) // an ack, not a task

	select {
	case err := <-cancelled:
		is.True(errors.Is(err, context.Canceled)) // the handler's context was cancelled
	case <-time.After(5 * time.Second):
		t.Fatal("the handler's context was not cancelled")
	}
	is.Equal(waitTask(t, h, id, "cancelled")["status"], "cancelled")

	_, again := taskRPC(t, h, tasksCaps, "tasks/cancel", id, `"taskId":"`+id+`"`)
	is.Equal(result(t, again)["resultType"], "complete") // idempotent
}

func TestTaskInputRequiredResumed(t *testing.T) {
	is := is.New(t)
	h := taskApp(nil, nil).HTTPHandler()
	id := startTask(t, h, "jobs_ask")

	waiting := waitTask(t, h, id, "input_required")
	requests := waiting["inputRequests"].(map[string]any)
	is.Equal(len(requests), 1)
	is.Equal(requests["confirm"].(map[string]any)["method"], "elicitation/create")

	// An answer to a request the task does not wait on is ignored.
	_, resp := taskRPC(t, h, tasksCaps, "tasks/update", id, `"taskId":"`+id+`","inputResponses":{"other":{"x":1}}`)
	is.Equal(result(t, resp)["resultType"], "complete")
	is.Equal(getTask(t, h, id)["status"], "input_required")

	_, resp = taskRPC(t, h, tasksCaps, "tasks/update", id,
		`"taskId":"`+id+`","inputResponses":{"confirm":{"action":"accept","content":{"yes":true}}}`)
	is.Equal(result(t, resp)["resultType"], "complete")
	done := waitTask(t, h, id, "completed")
	is.Equal(textOfResult(t, done["result"]), "confirmed=true")
}

func TestTaskFailures(t *testing.T) {
	is := is.New(t)
	h := taskApp(nil, nil).HTTPHandler()

	// A protocol error fails the task, with the error inlined.
	crashed := waitTask(t, h, startTask(t, h, "jobs_crash"), "failed", "completed")
	is.Equal(crashed["status"], "failed")
	is.Equal(crashed["error"], map[string]any{"code": float64(-32099), "message": "the job crashed"})
	_, hasResult := crashed["result"]
	is.True(!hasResult)

	// A tool error completes it, isError set.
	failed := waitTask(t, h, startTask(t, h, "jobs_fail"), "failed", "completed")
	is.Equal(failed["status"], "completed")
	is.Equal(failed["result"].(map[string]any)["isError"], true)
	is.Equal(failed["ttlMs"], float64(120000))
	is.Equal(failed["pollIntervalMs"], float64(250))
}

func TestTaskDeferredAfterRounds(t *testing.T) {
	is := is.New(t)
	h := taskApp(nil, nil).HTTPHandler()

	// Round one: the request's own input round, no task yet.
	_, resp := taskRPC(t, h, tasksCaps, "tools/call", "jobs_later", `"name":"jobs_later","arguments":{}`)
	round := result(t, resp)
	is.Equal(round["resultType"], "input_required")
	_, hasTask := round["taskId"]
	is.True(!hasTask)
	state := round["requestState"].(string)

	// Round two, answered: the handler starts the task.
	_, resp = taskRPC(t, h, tasksCaps, "tools/call", "jobs_later", `"name":"jobs_later","arguments":{},`+
		`"inputResponses":{"project":{"action":"accept","content":{"id":"p7"}}},"requestState":"`+state+`"`)
	created := result(t, resp)
	is.Equal(created["resultType"], "task")
	_, hasState := created["requestState"]
	is.True(!hasState)
	done := waitTask(t, h, created["taskId"].(string), "completed")
	is.Equal(textOfResult(t, done["result"]), "built p7 in a task: true")
}

func TestTaskNegotiation(t *testing.T) {
	is := is.New(t)
	h := taskApp(nil, nil).HTTPHandler()
	const plain = `{"elicitation":{}}`

	// Without the extension, the task methods are refused...
	status, resp := taskRPC(t, h, plain, "tasks/get", "x", `"taskId":"x"`)
	is.Equal(status, http.StatusBadRequest)
	is.Equal(rpcCode(resp), float64(mcp.CodeMissingRequiredClientCapabilities))
	is.Equal(resp["error"].(map[string]any)["data"],
		map[string]any{"requiredCapabilities": map[string]any{"extensions": map[string]any{vurb.TasksExtension: map[string]any{}}}})
	// ...a task-only action too...
	status, resp = taskRPC(t, h, plain, "tools/call", "jobs_fail", `"name":"jobs_fail","arguments":{}`)
	is.Equal(status, http.StatusBadRequest)
	is.Equal(rpcCode(resp), float64(mcp.CodeMissingRequiredClientCapabilities))
	// ...and the others run as ordinary calls.
	_, resp = taskRPC(t, h, plain, "tools/call", "jobs_crash", `"name":"jobs_crash","arguments":{}`)
	is.Equal(rpcCode(resp), float64(-32099))
	_, resp = taskRPC(t, h, tasksCaps, "tools/call", "jobs_sync", `"name":"jobs_sync","arguments":{},"task":{"ttl":1000}`)
	is.Equal(result(t, resp)["resultType"], "complete") // a legacy hint promotes nothing

	// Unknown tasks, removed methods, routing headers.
	_, resp = taskRPC(t, h, tasksCaps, "tasks/get", "nope", `"taskId":"nope"`)
	is.Equal(rpcCode(resp), float64(jsonrpc.CodeInvalidParams))
	for _, method := range []string{"tasks/result", "tasks/list"} {
		_, resp = taskRPC(t, h, tasksCaps, method, "", `"taskId":"nope"`)
		is.Equal(rpcCode(resp), float64(jsonrpc.CodeMethodNotFound))
	}
	id := startTask(t, h, "jobs_crash")
	status, resp = taskRPC(t, h, tasksCaps, "tasks/get", "another", `"taskId":"`+id+`"`)
	is.Equal(status, http.StatusBadRequest)
	is.Equal(rpcCode(resp), float64(mcp.CodeHeaderMismatch))
	_, resp = taskRPC(t, h, tasksCaps, "tasks/get", "", `"taskId":"`+id+`"`)
	is.Equal(rpcCode(resp), float64(mcp.CodeHeaderMismatch))
}

// TestTaskCapabilityAdvertised: server/discover names the extension, and a
// handshake-era client is served a task action as an ordinary call.
func TestTaskCapabilityAdvertised(t *testing.T) {
	is := is.New(t)
	app := taskApp(nil, nil)
	_, resp := taskRPC(t, app.HTTPHandler(), `{}`, "server/discover", "", "")
	caps := result(t, resp)["capabilities"].(map[string]any)
	is.Equal(caps["extensions"], map[string]any{vurb.TasksExtension: map[string]any{}})
	is.True(caps["tools"] != nil)

	cs := connect(t, app, nil)
	res, err := callRaw(t, cs, "jobs_fail", `{}`)
	is.NoErr(err)
	is.True(res.IsError)
	is.Equal(res.Content[0].(*mcp.TextContent).Text, "[jobs_fail] bad input, try again")
}

// TestTaskNoFastLane: tasks do not depend on the fast lane.
func TestTaskNoFastLane(t *testing.T) {
	is := is.New(t)
	h := taskApp(nil, nil).HTTPHandler(vurb.WithFastLane(false), vurb.WithJSONResponse())
	crashed := waitTask(t, h, startTask(t, h, "jobs_crash"), "failed")
	is.Equal(crashed["status"], "failed")
}

// TestTaskFrontKeepsTheCallersView: the tasks extension's front answers a
// tool the caller does not see (WithVisibility) as unknown, as every other
// path does, before saying anything about how the tool runs.
func TestTaskFrontKeepsTheCallersView(t *testing.T) {
	is := is.New(t)
	app := vurb.New(vurb.WithLogger(slog.New(slog.DiscardHandler)), vurb.WithVisibility(
		func(c *vurb.Caller) string { return c.Header.Get("X-Role") },
		func(role string, a vurb.ActionInfo) bool { return role == "ops" || a.Key == "jobs.sync" }))
	vurb.Action(app, "jobs.fail", func(context.Context, struct{}) (string, error) { return "ran", nil }).Task(vurb.WithTaskRequired())
	vurb.Action(app, "jobs.slow", func(context.Context, struct{}) (string, error) { return "ran", nil }).Task()
	vurb.Query(app, "jobs.sync", func(context.Context, struct{}) (string, error) { return "sync", nil })
	handler := app.HTTPHandler()

	for _, tool := range []string{"jobs_fail", "jobs_slow"} {
		for _, caps := range []string{tasksCaps, `{}`} {
			_, resp := taskRPC(t, handler, caps, "tools/call", tool, `"name":"`+tool+`"`)
			is.Equal(rpcCode(resp), float64(jsonrpc.CodeInvalidParams)) // unknown to this caller
			is.True(!strings.Contains(fmt.Sprint(resp), "task"))        // nothing said about how it runs
		}
	}
	_, resp := taskRPC(t, handler, tasksCaps, "tools/call", "jobs_sync", `"name":"jobs_sync"`)
	is.Equal(rpcCode(resp), float64(0))
}

// TestTaskFrontRunsTheRequestMiddleware: a tools/call that starts a task
// passes through the app's request middleware like any other: a guard
// refuses it, and what the middleware puts in the context reaches the task.
func TestTaskFrontRunsTheRequestMiddleware(t *testing.T) {
	is := is.New(t)
	type key struct{}
	mw := func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "tools/call" {
				extra := req.GetExtra()
				if extra == nil || extra.Header.Get("X-Allow") != "yes" {
					return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "denied by middleware"}
				}
				ctx = context.WithValue(ctx, key{}, "from middleware")
			}
			return next(ctx, method, req)
		}
	}
	app := vurb.New(vurb.WithLogger(slog.New(slog.DiscardHandler)), vurb.WithRequestMiddleware(mw))
	vurb.Action(app, "jobs.tag", func(ctx context.Context, _ struct{}) (string, error) {
		v, _ := ctx.Value(key{}).(string)
		return v, nil
	}).Task(vurb.WithTaskRequired())
	h := app.HTTPHandler()

	_, resp := taskRPC(t, h, tasksCaps, "tools/call", "jobs_tag", `"name":"jobs_tag"`)
	is.Equal(rpcCode(resp), float64(jsonrpc.CodeInvalidRequest)) // the guard refused it
	is.True(strings.Contains(fmt.Sprint(resp), "denied by middleware"))

	allowed := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.Header.Set("X-Allow", "yes")
		h.ServeHTTP(w, r)
	})
	id := startTask(t, allowed, "jobs_tag")
	done := waitTask(t, allowed, id, "completed")
	is.Equal(textOfResult(t, done["result"]), "from middleware")
}

// TestTaskRequiredOnEachGeneration holds the README's word: a 2026-07-28
// client that did not declare the tasks extension is refused a
// WithTaskRequired action with -32021; a handshake-era session (and stdio),
// which cannot declare it, is served synchronously.
func TestTaskRequiredOnEachGeneration(t *testing.T) {
	is := is.New(t)
	app := vurb.New(vurb.WithLogger(slog.New(slog.DiscardHandler)))
	vurb.Query(app, "reports.build", func(context.Context, struct{}) (string, error) { return "built", nil }).Task(vurb.WithTaskRequired())
	legacy := connectVersion(t, "2025-11-25", app, nil)
	res, err := callRaw(t, legacy, "reports_build", `{}`)
	is.NoErr(err)
	is.Equal(res.Content[0].(*mcp.TextContent).Text, "built")

	srv := httptest.NewServer(app.HTTPHandler())
	defer srv.Close()
	out, _, err := postJSONRPC(srv.URL, "", "2026-07-28", "tools/call", "reports_build",
		`{"name":"reports_build","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}`)
	is.NoErr(err)
	is.True(out.Error != nil)
	is.Equal(out.Error.Code, int64(mcp.CodeMissingRequiredClientCapabilities))
}

// TestALostTaskIsToldFromAnUnknownOne: after a restart, a task the
// in-memory store lost reads "lost", an expired one "expired", and an id
// the server never issued "not found" (all three read "not found" before).
func TestALostTaskIsToldFromAnUnknownOne(t *testing.T) {
	is := is.New(t)
	key := bytes.Repeat([]byte{3}, 32)
	serve := func() *httptest.Server {
		app := vurb.New(vurb.WithLogger(slog.New(slog.DiscardHandler)), vurb.WithRequestStateKeys(key))
		vurb.Mutation(app, "jobs.run", func(ctx context.Context, in struct {
			Millis int `json:"millis"`
		}) (string, error) {
			select {
			case <-time.After(time.Duration(in.Millis) * time.Millisecond):
			case <-ctx.Done():
			}
			return "ran", nil
		}).Task(vurb.WithTaskRequired(), vurb.WithTaskTTL(time.Second))
		return httptest.NewServer(app.HTTPHandler())
	}
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}`
	start := func(url string, millis int) string {
		out, _, err := postJSONRPC(url, "", "2026-07-28", "tools/call", "jobs_run",
			fmt.Sprintf(`{"name":"jobs_run","arguments":{"millis":%d},%s}`, millis, meta))
		is.NoErr(err)
		var created struct {
			ID string `json:"taskId"`
		}
		is.NoErr(json.Unmarshal(out.Result, &created))
		return created.ID
	}
	get := func(url, id string) *jsonrpc.Error {
		out, _, err := postJSONRPC(url, "", "2026-07-28", "tasks/get", id, `{"taskId":"`+id+`",`+meta+`}`)
		is.NoErr(err)
		return out.Error
	}
	first := serve()
	running := start(first.URL, 10_000)
	done := start(first.URL, 1)
	first.Close() // the server stops; its in-memory store is gone

	second := serve()
	defer second.Close()
	e := get(second.URL, running)
	is.True(e != nil && strings.Contains(e.Message, "was lost")) // lost, not unknown
	e = get(second.URL, "abcdefghijklmnopqrstuvwxyz234567abcdefghijklm")
	is.True(e != nil && strings.Contains(e.Message, "not found")) // never issued
	time.Sleep(1100 * time.Millisecond)
	e = get(second.URL, done)
	is.True(e != nil && strings.Contains(e.Message, "has expired"))
}

// TestHandlersBuiltAtOnceShareOneTaskStore: handlers built concurrently
// share the app's one default store, so a task started through one is
// found through any other (the store was read, then made, under two
// locks: two handlers built at once could get different stores).
func TestHandlersBuiltAtOnceShareOneTaskStore(t *testing.T) {
	is := is.New(t)
	app := vurb.New(vurb.WithLogger(slog.New(slog.DiscardHandler)))
	vurb.Mutation(app, "jobs.run", func(context.Context, struct{}) (string, error) { return "ran", nil }).Task(vurb.WithTaskRequired())
	app.Build()
	handlers := make([]http.Handler, 16)
	var wg sync.WaitGroup
	for i := range handlers {
		wg.Go(func() { handlers[i] = app.HTTPHandler() })
	}
	wg.Wait()
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}`
	first := httptest.NewServer(handlers[0])
	defer first.Close()
	out, _, err := postJSONRPC(first.URL, "", "2026-07-28", "tools/call", "jobs_run", `{"name":"jobs_run","arguments":{},`+meta+`}`)
	is.NoErr(err)
	id := taskID(out.Result)
	is.True(id != "")
	for _, h := range handlers[1:] {
		srv := httptest.NewServer(h)
		got, _, err := postJSONRPC(srv.URL, "", "2026-07-28", "tasks/get", id, `{"taskId":"`+id+`",`+meta+`}`)
		srv.Close()
		is.NoErr(err)
		is.True(got.Error == nil) // every handler finds the task
	}
}
