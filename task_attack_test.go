package vurb_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base32"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/vurb-go/vurb"
)

// Attacks of one user on another's tasks (issue #43, hole 9), over HTTP
// on 127.0.0.1 with bearer tokens: whatever Bob asks of a task of Alice's
// (live, finished, or lost when its server stopped), the answer is the
// one he gets for an id nobody ever issued, byte for byte. Only Alice may
// learn that her task was lost.

// taskUsers are the two users of the task attacks.
func taskUsers() map[string]*auth.TokenInfo {
	exp := time.Now().Add(time.Hour)
	return map[string]*auth.TokenInfo{
		"alice-token": {UserID: "alice", Expiration: exp},
		"bob-token":   {UserID: "bob", Expiration: exp},
	}
}

// tasksMeta is the _meta of a 2026-07-28 client that declared the tasks
// extension.
const tasksMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{},"extensions":{"io.modelcontextprotocol/tasks":{}}}}`

// twoUserTaskApp is an app whose "jobs.run" runs as a task until release
// is closed, or at once with {"quick":true}; "jobs.ask" waits on the
// client's input. Apps made with the same key recognise each other's
// task ids, as replicas or a restarted server do.
func twoUserTaskApp(key []byte, release <-chan struct{}) *vurb.App {
	app := vurb.New(vurb.WithLogger(slog.New(slog.DiscardHandler)), vurb.WithRequestStateKeys(key))
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
	}).Task(vurb.WithTaskRequired(), vurb.WithTaskTTL(time.Minute))
	vurb.Action(app, "jobs.ask", func(ctx context.Context, _ struct{}) (string, error) {
		ok, err := vurb.Ask[Confirm](ctx, "confirm", "Go on?")
		if err != nil {
			return "", err
		}
		return "confirmed=" + map[bool]string{true: "yes", false: "no"}[ok.Yes], nil
	}).Task(vurb.WithTaskRequired(), vurb.WithTaskTTL(time.Minute))
	return app
}

// rawAnswer is what a client reads of one HTTP answer: its status and its
// JSON-RPC message (an SSE event's data, or the body).
type rawAnswer struct {
	status  int
	session string
	body    []byte
}

// rawPost posts body with token (when not ""); method and name go in the routing
// headers of revision version, session (when not "") in Mcp-Session-Id.
func rawPost(t *testing.T, url, token, version, session, method, name, body string) rawAnswer {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if version != "" {
		req.Header.Set("Mcp-Protocol-Version", version)
	}
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
	}
	if method != "" {
		req.Header.Set("Mcp-Method", method)
	}
	if name != "" {
		req.Header.Set("Mcp-Name", name)
	}
	return send(t, req)
}

// send sends req and reads its answer: the status, the session the
// server named, and the one JSON-RPC message (an SSE event's data, or
// the body).
func send(t *testing.T, req *http.Request) rawAnswer {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "data: "); ok {
			data = []byte(rest)
			break
		}
	}
	return rawAnswer{status: resp.StatusCode, session: resp.Header.Get("Mcp-Session-Id"), body: bytes.TrimSpace(data)}
}

// startTaskAs starts tool as the holder of token and returns the task id.
func startTaskAs(t *testing.T, url, token, tool, args string) string {
	t.Helper()
	a := rawPost(t, url, token, "2026-07-28", "", "tools/call", tool,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"`+tool+`","arguments":`+args+`,`+tasksMeta+`}}`)
	var out struct {
		Result struct {
			ID string `json:"taskId"`
		} `json:"result"`
	}
	if err := json.Unmarshal(a.body, &out); err != nil || out.Result.ID == "" {
		t.Fatalf("%s: no task: %d %s", tool, a.status, a.body)
	}
	return out.Result.ID
}

// taskAs sends one 2026-07-28 tasks method about id as the holder of
// token.
func taskAs(t *testing.T, url, token, method, id string) rawAnswer {
	t.Helper()
	params := `"taskId":"` + id + `",`
	if method == "tasks/update" {
		params += `"inputResponses":{"confirm":{"action":"accept","content":{"yes":true}}},`
	}
	if method == "tasks/list" {
		params = ""
	}
	return rawPost(t, url, token, "2026-07-28", "", method, id,
		`{"jsonrpc":"2.0","id":9,"method":"`+method+`","params":{`+params+tasksMeta+`}}`)
}

// taskStatus returns the status of task id as its owner reads it.
func taskStatus(t *testing.T, url, token, id string) string {
	t.Helper()
	var out struct {
		Result struct {
			Status string `json:"status"`
		} `json:"result"`
	}
	a := taskAs(t, url, token, "tasks/get", id)
	if err := json.Unmarshal(a.body, &out); err != nil {
		t.Fatalf("%s: %v", a.body, err)
	}
	return out.Result.Status
}

// neverIssuedTaskID is an id of the shape vurb issues that no server
// issued.
func neverIssuedTaskID() string {
	b := make([]byte, 28)
	rand.Read(b)
	return base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding).EncodeToString(b)
}

// aliceTasks are tasks of Alice's in every state Bob may probe, and an id
// nobody issued, served by srv.
type aliceTasks struct {
	live, finished, waiting, lost, never string
}

// aliceTasksOn serves two apps sharing key: the first starts a task of
// Alice's and stops (its in-memory store goes with it: the task is lost);
// the second, returned, holds her live, finished and waiting tasks.
func aliceTasksOn(t *testing.T, opts ...vurb.ServeOption) (*httptest.Server, *vurb.App, aliceTasks) {
	t.Helper()
	key := bytes.Repeat([]byte{7}, 32)
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	verify := func(string) auth.TokenVerifier { return opaqueTokens(taskUsers()) }
	first, _ := protectedServer(t, twoUserTaskApp(key, release), verify, nil)
	var ts aliceTasks
	ts.lost = startTaskAs(t, first.URL, "alice-token", "jobs_run", `{}`)
	first.Close() // the server stops; its in-memory store is gone

	app := twoUserTaskApp(key, release)
	srv, _ := protectedServer(t, app, verify, nil, opts...)
	ts.live = startTaskAs(t, srv.URL, "alice-token", "jobs_run", `{}`)
	ts.finished = startTaskAs(t, srv.URL, "alice-token", "jobs_run", `{"quick":true}`)
	ts.waiting = startTaskAs(t, srv.URL, "alice-token", "jobs_ask", `{}`)
	for deadline := time.Now().Add(5 * time.Second); taskStatus(t, srv.URL, "alice-token", ts.finished) != "completed" ||
		taskStatus(t, srv.URL, "alice-token", ts.waiting) != "input_required"; {
		if time.Now().After(deadline) {
			t.Fatal("Alice's tasks did not settle")
		}
		time.Sleep(5 * time.Millisecond)
	}
	ts.never = neverIssuedTaskID()
	return srv, app, ts
}

// withoutID is a's status and message with id replaced, so that answers
// about two ids compare.
func withoutID(a rawAnswer, id string) string {
	return fmt.Sprintf("%d %s", a.status, bytes.ReplaceAll(a.body, []byte(id), []byte("<id>")))
}

// taskMethods are the methods of both generations of tasks: the
// extension's (get, update, cancel) and the experimental tasks of
// 2025-11-25 (get, result, list, cancel).
var taskMethods = []string{"tasks/get", "tasks/cancel", "tasks/update", "tasks/result", "tasks/list"}

// TestAttackAnotherUsersTaskReadsAsNeverIssued: whatever tasks method Bob
// sends about a task of Alice's, live, finished, waiting on her input or
// lost, he reads what he reads of an id never issued, byte for byte; and
// Alice's tasks go on as if he had not asked.
func TestAttackAnotherUsersTaskReadsAsNeverIssued(t *testing.T) {
	for _, c := range []struct {
		name string
		opts []vurb.ServeOption
	}{
		{"tasks front", nil},
		{"tasks front without the fast lane", []vurb.ServeOption{vurb.WithFastLane(false)}},
		{"tasks front answering JSON", []vurb.ServeOption{vurb.WithJSONResponse()}},
		{"tasks front of a stateless server", []vurb.ServeOption{vurb.WithStateless()}},
	} {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			srv, _, ts := aliceTasksOn(t, c.opts...)
			for _, method := range taskMethods {
				never := withoutID(taskAs(t, srv.URL, "bob-token", method, ts.never), ts.never)
				is.True(strings.Contains(never, `"error"`)) // nothing to read
				for kind, id := range map[string]string{"live": ts.live, "finished": ts.finished, "waiting": ts.waiting, "lost": ts.lost} {
					got := withoutID(taskAs(t, srv.URL, "bob-token", method, id), id)
					if got != never {
						t.Errorf("%s on Alice's %s task:\n got %s\nwant %s", method, kind, got, never)
					}
				}
			}
			is.Equal(taskStatus(t, srv.URL, "alice-token", ts.live), "working")           // Bob's cancel did nothing
			is.Equal(taskStatus(t, srv.URL, "alice-token", ts.waiting), "input_required") // nor his answers
		})
	}
}

// TestAttackAnotherUsersTaskOnASession: on a handshake-era session
// (2025-11-25, the go-sdk's), every tasks method reads alike whatever the
// id: the session knows no tasks, Alice's or anyone's.
func TestAttackAnotherUsersTaskOnASession(t *testing.T) {
	is := is.New(t)
	srv, _, ts := aliceTasksOn(t)
	init := rawPost(t, srv.URL, "bob-token", "", "", "", "",
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bob","version":"1"}}}`)
	is.Equal(init.status, http.StatusOK)
	is.True(init.session != "")
	rawPost(t, srv.URL, "bob-token", "2025-11-25", init.session, "", "", `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	ask := func(method, id string) string {
		return withoutID(rawPost(t, srv.URL, "bob-token", "2025-11-25", init.session, "", "",
			`{"jsonrpc":"2.0","id":9,"method":"`+method+`","params":{"taskId":"`+id+`"}}`), id)
	}
	for _, method := range taskMethods {
		never := ask(method, ts.never)
		is.True(strings.HasPrefix(never, "400 ")) // the go-sdk knows no tasks method
		for kind, id := range map[string]string{"live": ts.live, "finished": ts.finished, "waiting": ts.waiting, "lost": ts.lost} {
			if got := ask(method, id); got != never {
				t.Errorf("%s on Alice's %s task:\n got %s\nwant %s", method, kind, got, never)
			}
		}
	}
	is.Equal(taskStatus(t, srv.URL, "alice-token", ts.live), "working")
}

// TestAttackOnlyTheOwnerLearnsHerTaskWasLost: Alice reads that the task
// her stopped server ran was lost, and may call again; Bob reads of it
// what he reads of an id never issued.
func TestAttackOnlyTheOwnerLearnsHerTaskWasLost(t *testing.T) {
	is := is.New(t)
	srv, _, ts := aliceTasksOn(t)
	for _, method := range []string{"tasks/get", "tasks/cancel", "tasks/update"} {
		alice := taskAs(t, srv.URL, "alice-token", method, ts.lost)
		is.True(bytes.Contains(alice.body, []byte("was lost: the server running it stopped")))
		bob := withoutID(taskAs(t, srv.URL, "bob-token", method, ts.lost), ts.lost)
		never := withoutID(taskAs(t, srv.URL, "bob-token", method, ts.never), ts.never)
		is.Equal(bob, never)
		is.True(!strings.Contains(bob, "lost"))
		// Alice's own never-issued id reads as Bob's does.
		is.Equal(withoutID(taskAs(t, srv.URL, "alice-token", method, ts.never), ts.never), never)
	}
}
