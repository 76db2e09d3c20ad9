package vurb_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/store"
	"github.com/vurb-go/vurb/vurbtest"
)

// Attacks of one caller on the server and on other callers, each driven
// through every path a request can take against a real server: the fast
// lane (a sessionless 2026-07-28 POST), the go-sdk's sessions (a go-sdk
// client on a 2025-11-25 session), the go-sdk's stateless handler
// (WithFastLane(false)), the tasks front, stdio (the in-memory transport) and
// in-process App.Call.

// attackTokens are the callers of the attack app: a viewer and an admin,
// each with a role claim the visibility rule reads.
var attackTokens = map[string]*auth.TokenInfo{
	"viewer-token": {UserID: "vera", Scopes: []string{"read"}, Expiration: time.Now().Add(time.Hour), Extra: map[string]any{"role": "viewer"}},
	"admin-token":  {UserID: "ada", Scopes: []string{"read", "admin"}, Expiration: time.Now().Add(time.Hour), Extra: map[string]any{"role": "admin"}},
	"bare-token":   {UserID: "bob", Expiration: time.Now().Add(time.Hour), Extra: map[string]any{"role": "viewer"}},
}

// attackApp has an admin-only destructive action the viewer's class hides,
// a grouped tool one of whose actions needs a scope, and counts the runs
// of the destructive one by role; opts are the test's own options.
func attackApp(purges *sync.Map, opts ...vurb.Option) *vurb.App {
	app := vurb.New(append([]vurb.Option{vurb.WithLogger(slog.New(slog.DiscardHandler)),
		vurb.WithVisibility(roleClass, func(class string, a vurb.ActionInfo) bool {
			return class == "admin" || a.Tool != "admin"
		})}, opts...)...)
	vurb.Mutation(app, "admin.purge", func(ctx context.Context, _ struct{}) (string, error) {
		c := vurb.CallerFrom(ctx)
		role, _ := c.Token.Extra["role"].(string)
		n, _ := purges.LoadOrStore(role, new(atomic.Int64))
		n.(*atomic.Int64).Add(1)
		return "purged", nil
	})
	vurb.Query(app, "notes.list", func(context.Context, struct{}) (string, error) { return "notes", nil })
	vurb.Mutation(app, "notes.wipe", func(context.Context, struct{}) (string, error) { return "wiped", nil }).RequireScopes("admin")
	return app
}

// attackPath calls a tool as the holder of token through one path.
type attackPath struct {
	name string
	call func(t *testing.T, token, tool, args string) (text string, isError bool, err error)
}

// attackPaths serves app on each HTTP path (and in-process) for token
// holders.
func attackPaths(t *testing.T, app *vurb.App, opts ...vurb.ServeOption) []attackPath {
	verify := func(string) auth.TokenVerifier { return opaqueTokens(attackTokens) }
	lane, _ := protectedServer(t, app, verify, nil, opts...)
	sdkStateless, _ := protectedServer(t, app, verify, nil, append(opts, vurb.WithFastLane(false))...)
	sessions := map[string]*mcp.ClientSession{}
	var mu sync.Mutex
	return []attackPath{
		{"fast lane", func(t *testing.T, token, tool, args string) (string, bool, error) {
			return postCall(t, lane.URL, token, "2026-07-28", tool, args)
		}},
		{"go-sdk stateless", func(t *testing.T, token, tool, args string) (string, bool, error) {
			return postCall(t, sdkStateless.URL, token, "2026-07-28", tool, args)
		}},
		{"go-sdk session", func(t *testing.T, token, tool, args string) (string, bool, error) {
			mu.Lock()
			cs := sessions[token]
			if cs == nil {
				var err error
				if cs, _, err = bearerClient(context.Background(), lane.URL, "2025-11-25", token); err != nil {
					mu.Unlock()
					t.Fatal(err)
				}
				sessions[token] = cs
				t.Cleanup(func() { cs.Close() })
			}
			mu.Unlock()
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: json.RawMessage(args)})
			return resultText(res), res != nil && res.IsError, err
		}},
		{"in-memory (stdio's server)", func(t *testing.T, token, tool, args string) (string, bool, error) {
			mu.Lock()
			cs := sessions["memory "+token]
			if cs == nil {
				cs = vurbtest.New(t, app, vurbtest.Identity{Token: attackTokens[token]}).Session()
				sessions["memory "+token] = cs
			}
			mu.Unlock()
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: json.RawMessage(args)})
			return resultText(res), res != nil && res.IsError, err
		}},
		{"in-process", func(t *testing.T, token, tool, args string) (string, bool, error) {
			ctx := vurb.ContextWithCaller(context.Background(), &vurb.Caller{Token: attackTokens[token]})
			res, err := app.Call(ctx, tool, json.RawMessage(args))
			return resultText(res), res != nil && res.IsError, err
		}},
	}
}

func resultText(res *mcp.CallToolResult) string {
	if res == nil || len(res.Content) == 0 {
		return ""
	}
	if tc, ok := res.Content[0].(*mcp.TextContent); ok {
		return tc.Text
	}
	return ""
}

// postCall sends one sessionless tools/call with token and returns its
// text, or the JSON-RPC error.
func postCall(t *testing.T, url, token, version, tool, args string) (string, bool, error) {
	t.Helper()
	out, status, err := postJSONRPC(url, token, version, "tools/call", tool,
		fmt.Sprintf(`{"name":%q,"arguments":%s,"_meta":{"io.modelcontextprotocol/protocolVersion":%q,"io.modelcontextprotocol/clientCapabilities":{}}}`, tool, args, version))
	if err != nil {
		t.Fatalf("%d %v", status, err)
	}
	if out.Error != nil {
		return "", false, out.Error
	}
	var res mcp.CallToolResult
	if err := json.Unmarshal(out.Result, &res); err != nil {
		t.Fatalf("%s: %v", out.Result, err)
	}
	return resultText(&res), res.IsError, nil
}

type attackAnswer struct {
	Result json.RawMessage `json:"result"`
	Error  *jsonrpc.Error  `json:"error"`
}

// postJSONRPC posts one request of revision version and reads its answer.
func postJSONRPC(url, token, version, method, name, params string) (attackAnswer, int, error) {
	body := `{"jsonrpc":"2.0","id":7,"method":"` + method + `","params":` + params + `}`
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", version)
	req.Header.Set("Mcp-Method", method)
	if name != "" {
		req.Header.Set("Mcp-Name", name)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return attackAnswer{}, 0, err
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if i := bytes.Index(data, []byte("data: ")); i >= 0 {
		data = data[i+len("data: "):]
	}
	var out attackAnswer
	if err := json.Unmarshal(bytes.TrimSpace(data), &out); err != nil {
		return out, resp.StatusCode, fmt.Errorf("%d %q: %w", resp.StatusCode, data, err)
	}
	return out, resp.StatusCode, nil
}

// TestAttackHiddenToolNeitherBreaksNorLeaks: a viewer calling the tool its
// role hides gets "unknown tool" and breaks nothing: the admin's next call
// runs, and under racing calls the viewer never runs the admin's action.
func TestAttackHiddenToolNeitherBreaksNorLeaks(t *testing.T) {
	var purges sync.Map
	app := attackApp(&purges)
	for _, p := range attackPaths(t, app) {
		t.Run(p.name, func(t *testing.T) {
			is := is.New(t)
			_, _, err := p.call(t, "viewer-token", "admin_purge", `{}`)
			is.True(err != nil && strings.Contains(err.Error(), "unknown tool"))
			text, isErr, err := p.call(t, "admin-token", "admin_purge", `{}`)
			is.NoErr(err)
			is.True(!isErr)
			is.Equal(text, "purged")

			var wg sync.WaitGroup
			for i := range 40 {
				token := "viewer-token"
				if i%2 == 0 {
					token = "admin-token"
				}
				wg.Go(func() {
					text, _, err := p.call(t, token, "admin_purge", `{}`)
					if token == "admin-token" && (err != nil || text != "purged") {
						t.Errorf("the admin's call: %q %v", text, err)
					}
				})
			}
			wg.Wait()
		})
	}
	if n, ok := purges.Load("viewer"); ok {
		t.Fatalf("a viewer ran the admin-only action %d times", n.(*atomic.Int64).Load())
	}
}

// TestAttackGroupedErrorsNameOnlyWhatTheCallerSees: the viewer's list
// leaves out the action its token lacks the scope for, and so does the
// error it reads.
func TestAttackGroupedErrorsNameOnlyWhatTheCallerSees(t *testing.T) {
	app := vurb.New(vurb.WithLogger(slog.New(slog.DiscardHandler)), vurb.WithExposition(vurb.Grouped))
	vurb.Query(app, "notes.list", func(context.Context, struct{}) (string, error) { return "notes", nil })
	vurb.Mutation(app, "notes.wipe", func(context.Context, struct{}) (string, error) { return "wiped", nil }).RequireScopes("admin")
	for _, p := range attackPaths(t, app) {
		t.Run(p.name, func(t *testing.T) {
			is := is.New(t)
			text, isErr, err := p.call(t, "viewer-token", "notes", `{"action":"nope"}`)
			is.NoErr(err)
			is.True(isErr)
			is.True(strings.Contains(text, "Available: list"))
			is.True(!strings.Contains(text, "wipe")) // text
			text, _, _ = p.call(t, "admin-token", "notes", `{"action":"nope"}`)
			is.True(strings.Contains(text, "list, wipe")) // the admin sees both
		})
	}
}

// TestAttackDNSRebinding: a web page whose name resolves to 127.0.0.1
// (Host and Origin both evil.example) reaches no path of a loopback server.
func TestAttackDNSRebinding(t *testing.T) {
	is := is.New(t)
	var runs atomic.Int32
	app := vurb.New(vurb.WithLogger(slog.New(slog.DiscardHandler)))
	vurb.Mutation(app, "notes.wipe", func(context.Context, struct{}) (string, error) { runs.Add(1); return "wiped", nil })
	vurb.Mutation(app, "jobs.run", func(context.Context, struct{}) (string, error) { runs.Add(1); return "ran", nil }).Task()
	for _, opts := range [][]vurb.ServeOption{nil, {vurb.WithFastLane(false)}, {vurb.WithStateless()}} {
		srv := httptest.NewServer(app.HTTPHandler(opts...)) // 127.0.0.1
		for _, c := range []struct{ version, tool, meta string }{
			{"2026-07-28", "notes_wipe", `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`},
			{"2026-07-28", "jobs_run", `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}`},
			{"2025-11-25", "notes_wipe", `"_meta":{}`},
		} {
			body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + c.tool + `","arguments":{},` + c.meta + `}}`
			req, _ := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(body))
			req.Host = "evil.example"
			req.Header.Set("Origin", "http://evil.example")
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Mcp-Protocol-Version", c.version)
			req.Header.Set("Mcp-Method", "tools/call")
			req.Header.Set("Mcp-Name", c.tool)
			resp, err := http.DefaultClient.Do(req)
			is.NoErr(err)
			resp.Body.Close()
			is.Equal(resp.StatusCode, http.StatusForbidden) // c.version, c.tool
		}
		srv.Close()
	}
	is.Equal(runs.Load(), int32(0))
}

// TestAttackInputStateIsSealed: the state a handler carries is unreadable,
// and opens for neither another caller, nor other arguments, nor twice.
func TestAttackInputStateIsSealed(t *testing.T) {
	is := is.New(t)
	var deletes atomic.Int32
	app := vurb.New(vurb.WithLogger(slog.New(slog.DiscardHandler)))
	vurb.Mutation(app, "rows.delete", func(ctx context.Context, in struct {
		ID string `json:"id" validate:"required"`
	}) (string, error) {
		var approval struct{ For, Row string }
		if ok, err := vurb.Carried(ctx, &approval); err == nil && ok && approval.Row != "" {
			if _, err := vurb.Ask[Confirm](ctx, "confirm", "Sure?"); err != nil {
				return "", err
			}
			deletes.Add(1)
			return "deleted " + in.ID, nil
		}
		if err := vurb.Carry(ctx, map[string]string{"For": "alice", "Row": "db-row-secret-" + in.ID}); err != nil {
			return "", err
		}
		_, err := vurb.Ask[Confirm](ctx, "confirm", "Sure?")
		return "", err
	})
	srv, _ := protectedServer(t, app, func(string) auth.TokenVerifier { return opaqueTokens(attackTokens) }, nil)
	call := func(token, args, state string) attackAnswer {
		params := `{"name":"rows_delete","arguments":` + args + `,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}}`
		if state != "" {
			params += `,"requestState":"` + state + `","inputResponses":{"confirm":{"action":"accept","content":{"yes":true}}}`
		}
		out, _, err := postJSONRPC(srv.URL, token, "2026-07-28", "tools/call", "rows_delete", params+"}")
		is.NoErr(err)
		return out
	}
	first := call("viewer-token", `{"id":"mine"}`, "")
	var round struct {
		RequestState string `json:"requestState"`
	}
	is.NoErr(json.Unmarshal(first.Result, &round))
	is.True(round.RequestState != "")
	for _, enc := range []*base64.Encoding{base64.RawURLEncoding, base64.URLEncoding, base64.StdEncoding} {
		_, body, _ := strings.Cut(round.RequestState, ".")
		plain, _ := enc.DecodeString(strings.Split(body, ".")[0])
		is.True(!bytes.Contains(plain, []byte("db-row-secret"))) // the client cannot read it
	}
	for name, c := range map[string]struct{ token, args string }{
		"another caller":  {"admin-token", `{"id":"mine"}`},
		"other arguments": {"viewer-token", `{"id":"victim"}`},
	} {
		out := call(c.token, c.args, round.RequestState)
		is.True(out.Error != nil) // name
		is.True(strings.Contains(out.Error.Message, "invalid requestState"))
		_ = name
	}
	reordered := call("viewer-token", `{ "id" : "mine" }`, round.RequestState) // the same arguments, spaced otherwise
	is.True(reordered.Error == nil)
	is.Equal(deletes.Load(), int32(1))
	replay := call("viewer-token", `{"id":"mine"}`, round.RequestState)
	is.True(replay.Error != nil && strings.Contains(replay.Error.Message, "already used"))
	is.Equal(deletes.Load(), int32(1))
}

// TestAttackTaskStoreQuotas: a caller without scopes leaves no record; a
// caller filling the task store fills only its share, and another caller's
// task-required call still runs.
func TestAttackTaskStoreQuotas(t *testing.T) {
	is := is.New(t)
	mem := store.NewMemoryTasks(64, store.WithPerCaller(4, 0))
	app := vurb.New(vurb.WithLogger(slog.New(slog.DiscardHandler)), vurb.WithTasks(vurb.TaskConfig{Store: mem, TTL: time.Minute}))
	release := make(chan struct{})
	defer close(release)
	vurb.Mutation(app, "jobs.run", func(ctx context.Context, _ struct{}) (string, error) {
		select {
		case <-release:
		case <-ctx.Done():
		}
		return "ran", nil
	}).Task(vurb.WithTaskRequired()).RequireScopes("read")
	srv, _ := protectedServer(t, app, func(string) auth.TokenVerifier { return opaqueTokens(attackTokens) }, nil)
	start := func(token string) attackAnswer {
		out, _, err := postJSONRPC(srv.URL, token, "2026-07-28", "tools/call", "jobs_run",
			`{"name":"jobs_run","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}}`)
		is.NoErr(err)
		return out
	}
	for range 20 {
		start("bare-token") // no scope: refused, and nothing stored
	}
	is.Equal(mem.Len(), 0)
	created := 0
	for range 20 {
		if out := start("viewer-token"); out.Error == nil {
			created++
		}
	}
	is.Equal(created, 4) // the viewer's share
	out := start("admin-token")
	is.True(out.Error == nil) // another caller is not refused
	is.Equal(mem.Len(), 5)
}

// TestAttackIdleConnectionsGiveWay: sockets that send nothing, as many as
// the connection cap, do not keep a client with a request out.
func TestAttackIdleConnectionsGiveWay(t *testing.T) {
	is := is.New(t)
	app := vurb.New(vurb.WithLogger(slog.New(slog.DiscardHandler)))
	vurb.Query(app, "notes.list", func(context.Context, struct{}) (string, error) { return "notes", nil })
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	is.NoErr(err)
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- app.ServeListener(ctx, ln, vurb.WithMaxConnections(50)) }()
	defer func() { cancel(); <-served }()
	url := "http://" + ln.Addr().String() + "/mcp"
	var idle []net.Conn
	for range 60 {
		c, err := net.Dial("tcp", ln.Addr().String())
		is.NoErr(err)
		idle = append(idle, c)
	}
	defer func() {
		for _, c := range idle {
			c.Close()
		}
	}()
	time.Sleep(100 * time.Millisecond)
	client := &http.Client{Timeout: 3 * time.Second}
	http.DefaultClient, client = client, http.DefaultClient
	defer func() { http.DefaultClient = client }()
	text, _, err := postCall(t, url, "", "2026-07-28", "notes_list", `{}`)
	is.NoErr(err)
	is.Equal(text, "notes")
}

// TestAttackCompletionNeedsTheAppsScopes: a token without the app's scopes
// completes nothing, as it reads no prompt.
func TestAttackCompletionNeedsTheAppsScopes(t *testing.T) {
	is := is.New(t)
	app := vurb.New(vurb.WithLogger(slog.New(slog.DiscardHandler)))
	app.RequireScopes("read")
	vurb.Prompt(app, "greet", func(_ context.Context, a struct {
		Name string `json:"name"`
	}) (string, error) {
		return "hi " + a.Name, nil
	}).Complete("name", func(context.Context, string, map[string]string) ([]string, error) {
		return []string{"secret-customer"}, nil
	})
	srv, _ := protectedServer(t, app, func(string) auth.TokenVerifier { return opaqueTokens(attackTokens) }, nil)
	for _, version := range []string{"2026-07-28", "2025-11-25"} {
		for token, allowed := range map[string]bool{"bare-token": false, "viewer-token": true} {
			cs, _, err := bearerClient(context.Background(), srv.URL, version, token)
			is.NoErr(err)
			res, err := cs.Complete(context.Background(), &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/prompt", Name: "greet"},
				Argument: mcp.CompleteParamsArgument{Name: "name", Value: "s"}})
			if allowed {
				is.NoErr(err)
				is.Equal(res.Completion.Values, []string{"secret-customer"})
			} else {
				is.True(err != nil && strings.Contains(err.Error(), "read")) // the missing scope, no values
			}
			_, err = cs.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: strings.Repeat("p", 100_000)})
			is.True(err != nil && len(err.Error()) < 1_000) // an unknown name is echoed truncated
			cs.Close()
		}
	}
}

// TestAttackPerCallerListsAreNotShared: lists that differ per caller are
// private and stale at once.
func TestAttackPerCallerListsAreNotShared(t *testing.T) {
	is := is.New(t)
	var purges sync.Map
	srv, _ := protectedServer(t, attackApp(&purges), func(string) auth.TokenVerifier { return opaqueTokens(attackTokens) }, nil)
	out, _, err := postJSONRPC(srv.URL, "viewer-token", "2026-07-28", "tools/list", "",
		`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}`)
	is.NoErr(err)
	var list struct {
		TTL   *int   `json:"ttlMs"`
		Scope string `json:"cacheScope"`
	}
	is.NoErr(json.Unmarshal(out.Result, &list))
	is.Equal(list.Scope, "private")
	is.True(list.TTL != nil && *list.TTL == 0)
}

// TestAttackRefusalsTellNoInternals: a forged token's 401 says what RFC
// 6750 allows and nothing of why the verifier refused it.
func TestAttackRefusalsTellNoInternals(t *testing.T) {
	is := is.New(t)
	app := vurb.New(vurb.WithLogger(slog.New(slog.DiscardHandler)))
	vurb.Query(app, "notes.list", func(context.Context, struct{}) (string, error) { return "notes", nil })
	chatty := func(string) auth.TokenVerifier {
		return func(context.Context, string, *http.Request) (*auth.TokenInfo, error) {
			return nil, fmt.Errorf("%w: expected issuer https://internal-idp.corp:8443, jwks https://10.0.0.7/keys, clock 2026-11-26 m=+3600.1", auth.ErrInvalidToken)
		}
	}
	srv, _ := protectedServer(t, app, chatty, nil)
	for _, version := range []string{"2026-07-28", "2025-11-25"} {
		req, _ := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`))
		req.Header.Set("Authorization", "Bearer forged")
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", version)
		resp, err := http.DefaultClient.Do(req)
		is.NoErr(err)
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		is.Equal(resp.StatusCode, http.StatusUnauthorized)
		is.True(strings.Contains(string(body), "invalid_token"))
		for _, secret := range []string{"internal-idp", "10.0.0.7", "m=+", "issuer"} {
			is.True(!strings.Contains(string(body), secret)) // secret
		}
	}
}

// TestAttackOneCallerCannotFillTheSessions: a caller holding its share of
// busy sessions is refused its next one; another caller opens as before.
func TestAttackOneCallerCannotFillTheSessions(t *testing.T) {
	is := is.New(t)
	app := vurb.New(vurb.WithLogger(slog.New(slog.DiscardHandler)))
	vurb.Query(app, "notes.list", func(context.Context, struct{}) (string, error) { return "notes", nil })
	srv, _ := protectedServer(t, app, func(string) auth.TokenVerifier { return opaqueTokens(attackTokens) }, nil,
		vurb.WithMaxSessions(100), vurb.WithMaxSessionsPerCaller(3))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	open := func(token string) (*http.Response, error) {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL, strings.NewReader(initializeBody))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Authorization", "Bearer "+token)
		return http.DefaultClient.Do(req)
	}
	for range 3 { // the attacker's share, each session kept busy by a stream
		resp, err := open("viewer-token")
		is.NoErr(err)
		resp.Body.Close()
		is.Equal(resp.StatusCode, http.StatusOK)
		get, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL, nil)
		get.Header.Set("Accept", "text/event-stream")
		get.Header.Set("Authorization", "Bearer viewer-token")
		get.Header.Set("Mcp-Session-Id", resp.Header.Get("Mcp-Session-Id"))
		get.Header.Set("Mcp-Protocol-Version", "2025-06-18")
		stream, err := http.DefaultClient.Do(get)
		is.NoErr(err)
		defer stream.Body.Close()
	}
	for range 20 {
		resp, err := open("viewer-token")
		is.NoErr(err)
		resp.Body.Close()
		is.Equal(resp.StatusCode, http.StatusTooManyRequests)
	}
	resp, err := open("admin-token")
	is.NoErr(err)
	resp.Body.Close()
	is.Equal(resp.StatusCode, http.StatusOK) // another caller is not refused
}

// TestAttackHiddenTaskToolIsUnknown: through the tasks front, a tool the
// caller's class hides is unknown and leaves no task; the admin's call of
// it becomes a task.
func TestAttackHiddenTaskToolIsUnknown(t *testing.T) {
	is := is.New(t)
	var purges sync.Map
	mem := store.NewMemoryTasks(0)
	app := attackApp(&purges, vurb.WithTasks(vurb.TaskConfig{Store: mem, TTL: time.Minute}))
	vurb.Mutation(app, "admin.reindex", func(context.Context, struct{}) (string, error) { return "reindexed", nil }).Task(vurb.WithTaskRequired())
	srv, _ := protectedServer(t, app, func(string) auth.TokenVerifier { return opaqueTokens(attackTokens) }, nil)
	call := func(token string) attackAnswer {
		out, _, err := postJSONRPC(srv.URL, token, "2026-07-28", "tools/call", "admin_reindex",
			`{"name":"admin_reindex","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}}`)
		is.NoErr(err)
		return out
	}
	out := call("viewer-token")
	is.True(out.Error != nil && strings.Contains(out.Error.Message, "unknown tool"))
	is.Equal(mem.Len(), 0)
	out = call("admin-token")
	is.True(out.Error == nil)
	is.True(strings.Contains(string(out.Result), `"task"`))
}

// TestAllowedHostsOnALoopbackListener: the hosts WithAllowedHosts lists are
// answered on a loopback listener, on every path; others are refused.
func TestAllowedHostsOnALoopbackListener(t *testing.T) {
	is := is.New(t)
	app := vurb.New(vurb.WithLogger(slog.New(slog.DiscardHandler)))
	vurb.Query(app, "notes.list", func(context.Context, struct{}) (string, error) { return "notes", nil })
	for _, opts := range [][]vurb.ServeOption{nil, {vurb.WithFastLane(false)}} {
		srv := httptest.NewServer(app.HTTPHandler(append(opts, vurb.WithAllowedHosts("mcp.internal"))...))
		for host, want := range map[string]int{"mcp.internal": http.StatusOK, "evil.example": http.StatusForbidden} {
			req, _ := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(
				`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"notes_list","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`))
			req.Host = host
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
			req.Header.Set("Mcp-Method", "tools/call")
			req.Header.Set("Mcp-Name", "notes_list")
			resp, err := http.DefaultClient.Do(req)
			is.NoErr(err)
			resp.Body.Close()
			is.Equal(resp.StatusCode, want) // host
		}
		srv.Close()
	}
}

// TestAttackPanickingKeyFunctionOnEveryPath: a KeyedBy function that
// panics (a token without the claim it reads) is answered as an internal
// error and logged with its stack on every path, a task's goroutine
// included, and the server serves the next call.
func TestAttackPanickingKeyFunctionOnEveryPath(t *testing.T) {
	is := is.New(t)
	var log syncBuffer
	app := vurb.New(vurb.WithLogger(slog.New(slog.NewTextHandler(&log, nil))))
	tenant := vurb.PerCaller(1000, time.Minute).KeyedBy(func(_ context.Context, c *vurb.Caller) string {
		return c.Token.Extra["tenant"].(string) // panics without the claim
	})
	vurb.Query(app, "notes.list", func(context.Context, struct{}) (string, error) { return "notes", nil }).RateLimit(tenant)
	vurb.Mutation(app, "jobs.run", func(context.Context, struct{}) (string, error) { return "ran", nil }).Task().RateLimit(tenant)
	vurb.Query(app, "health.check", func(context.Context, struct{}) (string, error) { return "ok", nil })
	srv, _ := protectedServer(t, app, func(string) auth.TokenVerifier { return opaqueTokens(attackTokens) }, nil)

	tasks := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}`
	out, _, err := postJSONRPC(srv.URL, "viewer-token", "2026-07-28", "tools/call", "jobs_run", `{"name":"jobs_run","arguments":{},`+tasks+`}`)
	is.NoErr(err)
	is.True(out.Error != nil || strings.Contains(string(out.Result), "internal error")) // the task's call: contained
	for _, p := range attackPaths(t, app) {
		text, isErr, err := p.call(t, "viewer-token", "notes_list", `{}`)
		is.True(err != nil || isErr)                          // p.name
		is.True(err != nil || strings.Contains(text, "ref ")) // an internal error with its reference
		text, _, err = p.call(t, "viewer-token", "health_check", `{}`)
		is.NoErr(err)
		is.Equal(text, "ok") // still serving
	}
	is.True(strings.Contains(log.String(), "panicked"))
	is.True(strings.Contains(log.String(), "stack="))
}

// TestAttackTemplateVariablesStayInTheirFolder: a variable that could climb
// out of a folder matches no resource, and the handler never sees it; a
// handler's plain error reaches the client as an internal error with a
// reference, never with its text (a server path) or JSON-RPC code 0.
func TestAttackTemplateVariablesStayInTheirFolder(t *testing.T) {
	is := is.New(t)
	var seen []string
	var mu sync.Mutex
	app := vurb.New(vurb.WithLogger(slog.New(slog.DiscardHandler)))
	vurb.ResourceTemplate(app, "files://{dir}/{name}.txt", "files", func(_ context.Context, vars map[string]string) (vurb.Contents, error) {
		mu.Lock()
		seen = append(seen, vars["dir"]+"|"+vars["name"])
		mu.Unlock()
		if vars["name"] == "broken" {
			return vurb.Contents{}, errors.New("open /srv/data/secret/broken.txt: permission denied")
		}
		return vurb.Contents{Text: "in " + vars["dir"]}, nil
	})
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		cs := connectVersion(t, version, app, nil)
		for _, uri := range []string{"files://../secret.txt", "files://./x.txt", "files://%2E%2E/secret.txt",
			"files://a%2Fb/x.txt", "files://a%5Cb/x.txt", `files://a\b/x.txt`, "files://%2e./x.txt"} {
			_, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
			is.True(err != nil) // uri
		}
		res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "files://docs/readme.txt"})
		is.NoErr(err)
		is.Equal(res.Contents[0].Text, "in docs")
		_, err = cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "files://docs/broken.txt"})
		var rpcErr *jsonrpc.Error
		is.True(errors.As(err, &rpcErr))
		is.Equal(rpcErr.Code, int64(jsonrpc.CodeInternalError))
		is.True(!strings.Contains(rpcErr.Message, "/srv/data"))
		is.True(strings.Contains(rpcErr.Message, "ref "))
	}
	mu.Lock()
	defer mu.Unlock()
	for _, s := range seen {
		is.True(s == "docs|readme" || s == "docs|broken") // the handler saw no climbing value
	}
}

// TestAttackSubscriptionsAreBoundedAndReclaimed: a session subscribes to at
// most 100 resources (the bound the README states), and what it subscribed to is
// reclaimed when it closes (the go-sdk kept every URI).
func TestAttackSubscriptionsAreBoundedAndReclaimed(t *testing.T) {
	// The heap is measured in a process of its own: in the package's
	// process, the goroutines other tests left behind (closing servers,
	// idle timers) moved it by more than the 2 MB at stake under -race.
	const child = "VURB_SUBSCRIPTIONS_CHILD"
	if os.Getenv(child) == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestAttackSubscriptionsAreBoundedAndReclaimed$", "-test.v", "-test.count=1")
		cmd.Env = append(os.Environ(), child+"=1")
		out, err := cmd.CombinedOutput()
		t.Logf("in a process of its own:\n%s", out)
		if err != nil {
			t.Fatalf("the measuring process failed: %v", err)
		}
		return
	}
	is := is.New(t)
	app := vurb.New(vurb.WithLogger(slog.New(slog.DiscardHandler)))
	vurb.ResourceTemplate(app, "blobs://{id}", "blobs", func(context.Context, map[string]string) (vurb.Contents, error) {
		return vurb.Contents{Text: "x"}, nil
	})
	server := app.NewServer()
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	before := heap()
	ctx := context.Background()
	for s := range 10 {
		st, ct := mcp.NewInMemoryTransports()
		ss, err := server.Connect(ctx, st, nil)
		is.NoErr(err)
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(ctx, ct,
			&mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"}) // subscriptions that outlive a request
		is.NoErr(err)
		for i := range 100 { // the bound
			uri := fmt.Sprintf("blobs://%d-%d-%s", s, i, strings.Repeat("x", 2000))
			is.NoErr(cs.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}))
		}
		err = cs.Subscribe(ctx, &mcp.SubscribeParams{URI: fmt.Sprintf("blobs://%d-over", s)})
		if err == nil || !strings.Contains(err.Error(), "its limit") {
			t.Fatalf("past the bound: %v", err)
		}
		err = cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "blobs://" + strings.Repeat("y", 4000)})
		is.True(err != nil) // a URI too long to keep
		cs.Close()
		_ = ss.Wait()
	}
	held := heap() - min(before, heap())
	// Each closed session's URIs are unsubscribed one by one, a thousand
	// in-memory round trips in all: under -race on a CI machine busy with
	// other packages, that took more than 5 s.
	deadline := time.Now().Add(30 * time.Second)
	// Held, the URIs are 2 MB (10 sessions × 100 × 2 KB); reclaimed, what
	// is left is the noise of a shared heap, which other tests' goroutines
	// still use: half of the 2 MB tells the two apart.
	// The reading the loop judges is the one asserted: the heap moves while
	// reclaiming goroutines still run, and a second reading could catch
	// them mid-flight.
	after := int64(heap()) - int64(before)
	for after >= 1<<20 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
		after = int64(heap()) - int64(before)
	}
	t.Logf("subscribed: %d KB more; after the sessions closed: %d KB", held>>10, after>>10)
	is.True(after < 1<<20)    // the 2 MB of URIs are reclaimed
	runtime.KeepAlive(server) // what the server keeps is measured, not the server collected
}
