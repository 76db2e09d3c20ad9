package vurb_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/vurbtest"
)

// localApp has a scoped action, a public one, and an admin tool that only
// the caller of class "admin" (a claim of the token) sees.
func localApp() *vurb.App {
	app := vurb.New(vurb.WithLogger(slog.New(slog.DiscardHandler)),
		vurb.WithVisibility(roleClass, func(class string, a vurb.ActionInfo) bool { return a.Tool != "admin" || class == "admin" }))
	vurb.Query(app, "projects.list", func(ctx context.Context, _ struct{}) (string, error) {
		return "projects of " + vurb.CallerFrom(ctx).Subject(), nil
	}).RequireScopes("projects:read")
	vurb.Query(app, "ops.ping", func(context.Context, struct{}) (string, error) { return "pong", nil })
	vurb.Query(app, "admin.stats", func(context.Context, struct{}) (string, error) { return "stats", nil })
	return app
}

// stdioExchange initializes a stdio session and sends each request line,
// returning each answer's result.
func stdioExchange(t *testing.T, w io.Writer, r *bufio.Reader, lines ...string) []json.RawMessage {
	t.Helper()
	if _, err := io.WriteString(w, stdioInit); err != nil {
		t.Fatal(err)
	}
	readAnswer(t, r)
	var out []json.RawMessage
	for _, line := range lines {
		if _, err := io.WriteString(w, line+"\n"); err != nil {
			t.Fatal(err)
		}
		a := readAnswer(t, r)
		if a.Error != nil {
			t.Fatalf("%s: %+v", line, a.Error)
		}
		out = append(out, a.Result)
	}
	return out
}

const (
	stdioList     = `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`
	stdioCallList = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"projects_list","arguments":{}}}`
)

func listedNames(t *testing.T, raw json.RawMessage) []string {
	t.Helper()
	var res mcp.ListToolsResult
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	return names
}

func callText(t *testing.T, raw json.RawMessage) (string, bool) {
	t.Helper()
	var res struct {
		Content []struct{ Text string } `json:"content"`
		IsError bool                    `json:"isError"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		b.WriteString(c.Text)
	}
	return b.String(), res.IsError
}

func TestStdioWithoutALocalTokenIsAnAnonymousCaller(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	w, r := stdioServer(t, localApp())
	got := stdioExchange(t, w, r, stdioList, stdioCallList)
	is.Equal(listedNames(t, got[0]), []string{"ops_ping"})
	text, isErr := callText(t, got[1])
	is.True(isErr)
	is.True(strings.Contains(text, "needs the OAuth scope(s) projects:read")) // the refusal names the scope
}

func TestStdioLocalTokenIsEveryRequestsVerifiedToken(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	token := &auth.TokenInfo{UserID: "alice", Scopes: []string{"projects:read"}, Extra: map[string]any{"role": "admin"}}
	w, r := stdioServerWith(t, localApp(), nil, []vurb.ServeOption{vurb.WithLocalToken(token)})
	got := stdioExchange(t, w, r, stdioList, stdioCallList,
		// The client cannot speak for someone else: _meta is no identity.
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"projects_list","arguments":{},"_meta":{"user":"mallory"}}}`)
	is.Equal(listedNames(t, got[0]), []string{"admin_stats", "ops_ping", "projects_list"}) // scopes and visibility read it
	text, isErr := callText(t, got[1])
	is.True(!isErr)
	is.Equal(text, "projects of alice") // Caller.Token
	text, _ = callText(t, got[2])
	is.Equal(text, "projects of alice")
}

func TestStdioLocalTokenWithoutTheScopesIsRefusedNamingThem(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	token := &auth.TokenInfo{UserID: "bob", Scopes: []string{"other"}}
	w, r := stdioServerWith(t, localApp(), nil, []vurb.ServeOption{vurb.WithLocalToken(token)})
	got := stdioExchange(t, w, r, stdioList, stdioCallList)
	is.Equal(listedNames(t, got[0]), []string{"ops_ping"}) // bob is no admin, and lacks the scope
	text, isErr := callText(t, got[1])
	is.True(isErr)
	is.True(strings.Contains(text, "projects:read"))
}

// TestLocalTokenKeysPerCallerRateLimits serves one app twice over stdio,
// as two desktop clients would run it: anonymous, both share one bucket;
// each with its own local token, each has its own.
func TestLocalTokenKeysPerCallerRateLimits(t *testing.T) {
	t.Parallel()
	const call = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ops_ping","arguments":{}}}`
	limited := func(t *testing.T, tokens ...*auth.TokenInfo) []bool {
		app := vurb.New(vurb.WithLogger(slog.New(slog.DiscardHandler)), vurb.WithRateLimit(vurb.PerCaller(1, time.Hour)))
		vurb.Query(app, "ops.ping", func(context.Context, struct{}) (string, error) { return "pong", nil })
		var out []bool
		for _, token := range tokens {
			var opts []vurb.ServeOption
			if token != nil {
				opts = append(opts, vurb.WithLocalToken(token))
			}
			w, r := stdioServerWith(t, app, nil, opts)
			text, _ := callText(t, stdioExchange(t, w, r, call)[0])
			out = append(out, strings.Contains(text, "rate limit reached"))
		}
		return out
	}
	is := is.New(t)
	is.Equal(limited(t, nil, nil), []bool{false, true})
	is.Equal(limited(t, &auth.TokenInfo{UserID: "alice"}, &auth.TokenInfo{UserID: "bob"}), []bool{false, false})
	is.Equal(limited(t, &auth.TokenInfo{UserID: "alice"}, &auth.TokenInfo{UserID: "alice"}), []bool{false, true})
}

func TestLocalTokenIsForServeOnly(t *testing.T) {
	t.Parallel()
	token := vurb.WithLocalToken(&auth.TokenInfo{UserID: "alice"})
	for _, tc := range []struct {
		name, want string
		run        func(*vurb.App)
	}{
		{"HTTPHandler", "vurb: HTTPHandler: WithLocalToken states who the caller of Serve's transport is", func(a *vurb.App) { a.HTTPHandler(token) }},
		{"ListenAndServe", "use WithBearerAuth", func(a *vurb.App) {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			defer ln.Close()
			_ = a.ListenAndServe(context.Background(), ln.Addr().String(), token)
		}},
		{"NewServer", "vurb: NewServer: WithLocalToken applies to Serve", func(a *vurb.App) { a.NewServer(token) }},
		{"Attach", "vurb: Attach: WithLocalToken applies to Serve", func(a *vurb.App) { a.Attach(mcp.NewServer(&mcp.Implementation{Name: "s"}, nil), token) }},
		{"nil", "vurb: WithLocalToken: the token is nil", func(*vurb.App) { vurb.WithLocalToken(nil) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				msg, _ := recover().(string)
				if !strings.Contains(msg, tc.want) {
					t.Errorf("panic %q, want it to say %q", msg, tc.want)
				}
			}()
			tc.run(localApp())
		})
	}
}

func TestInProcessCallsStateTheirCallerWithContextWithCaller(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	app := localApp()
	res, err := app.Call(context.Background(), "projects_list", nil)
	is.NoErr(err)
	is.True(res.IsError)
	is.True(strings.Contains(vurbtest.Text(res), "needs the OAuth scope(s) projects:read"))

	ctx := vurb.ContextWithCaller(context.Background(), &vurb.Caller{Token: &auth.TokenInfo{UserID: "alice", Scopes: []string{"projects:read"}}})
	res, err = app.Call(ctx, "projects_list", nil)
	is.NoErr(err)
	is.True(!res.IsError)
	is.Equal(vurbtest.Text(res), "projects of alice")
}
