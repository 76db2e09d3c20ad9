package vurb_test

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb"
)

// Every front vurb answers itself (the fast lane, the session lane, the
// tasks front) applies the same request rules before it takes a request:
// whatever one of them would refuse, each hands to the go-sdk, so a bad
// request gets the go-sdk's own answer whichever path it arrives on.

// rulesApp serves "jobs.run" (a task when task is set) and "notes.find",
// both answering at once, jobs.run after a moment so that a task started
// for it is started before it ends.
func rulesApp(task bool) *vurb.App {
	app := vurb.New(vurb.WithLogger(slog.New(slog.DiscardHandler)))
	type input struct {
		Q any `json:"q"`
	}
	run := vurb.Action(app, "jobs.run", func(ctx context.Context, _ input) (string, error) {
		time.Sleep(20 * time.Millisecond)
		return "ran", nil
	})
	if task {
		run.Task(vurb.WithTaskTTL(time.Minute))
	}
	vurb.Query(app, "notes.find", func(context.Context, input) (string, error) { return "found", nil })
	return app
}

// ruleCase is one bad request: its body's arguments and what it changes
// of a well-formed request's headers.
type ruleCase struct {
	name    string
	args    string
	headers map[string]string
}

// ruleCases are the bad requests of every rule the fronts apply.
func ruleCases() []ruleCase {
	deep := strings.Repeat("[", 1001) + strings.Repeat("]", 1001)
	return []ruleCase{
		{name: "nesting", args: `{"q":` + deep + `}`},
		{name: "oversized", args: `{"q":"` + strings.Repeat("x", 8<<10) + `"}`},
		{name: "param header", args: `{"q":1}`, headers: map[string]string{"Mcp-Param-Region": "eu"}},
		{name: "name header", args: `{"q":1}`, headers: map[string]string{"Mcp-Name": "other"}},
		{name: "method header", args: `{"q":1}`, headers: map[string]string{"Mcp-Method": "tools/list"}},
		{name: "revision header", args: `{"q":1}`, headers: map[string]string{"Mcp-Protocol-Version": "2025-11-25"}},
		{name: "content type", args: `{"q":1}`, headers: map[string]string{"Content-Type": "text/plain"}},
		{name: "accept", args: `{"q":1}`, headers: map[string]string{"Accept": "application/json"}},
	}
}

// rulesMeta is the _meta of a 2026-07-28 client that declared the tasks
// extension.
const rulesMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}`

// postRule posts a tools/call of tool with c's arguments and headers, on
// session (a handshake-era request) or sessionless (2026-07-28) when
// session is "", and returns the status and the JSON-RPC message.
func postRule(t *testing.T, url, session, tool string, c ruleCase) (int, string) {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + c.args
	if session == "" {
		body += "," + rulesMeta
	}
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body+`}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session == "" {
		req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
		req.Header.Set("Mcp-Method", "tools/call")
		req.Header.Set("Mcp-Name", tool)
	} else {
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
		req.Header.Set("Mcp-Session-Id", session)
	}
	for k, v := range c.headers {
		req.Header.Set(k, v)
	}
	a := send(t, req)
	return a.status, string(a.body)
}

// TestAttackEveryFrontAppliesTheSameRequestRules sends each bad request
// through the fast lane, the tasks front and the session lane, and holds
// every answer to the go-sdk's own for the same request (a server without
// the lane, whose jobs.run is no task).
func TestAttackEveryFrontAppliesTheSameRequestRules(t *testing.T) {
	opts := []vurb.ServeOption{vurb.WithMaxBodyBytes(4 << 10)}
	vurbSrv := httptest.NewServer(rulesApp(true).HTTPHandler(opts...))
	defer vurbSrv.Close()
	sdkSrv := httptest.NewServer(rulesApp(false).HTTPHandler(append(opts, vurb.WithFastLane(false))...))
	defer sdkSrv.Close()
	vurbSession := startSession(t, vurbSrv.Config.Handler, "2025-06-18")
	sdkSession := startSession(t, sdkSrv.Config.Handler, "2025-06-18")
	paths := []struct {
		name, tool, session, sdkSession string
	}{
		{name: "fast lane", tool: "notes_find"},
		{name: "tasks front", tool: "jobs_run"},
		{name: "session lane", tool: "notes_find", session: vurbSession, sdkSession: sdkSession},
	}
	for _, c := range ruleCases() {
		for _, p := range paths {
			t.Run(c.name+"/"+p.name, func(t *testing.T) {
				is := is.New(t)
				status, body := postRule(t, vurbSrv.URL, p.session, p.tool, c)
				wantStatus, wantBody := postRule(t, sdkSrv.URL, p.sdkSession, p.tool, c)
				is.Equal(status, wantStatus) // the go-sdk's status
				is.Equal(body, wantBody)     // the go-sdk's answer
			})
		}
	}
}
