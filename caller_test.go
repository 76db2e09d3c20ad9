package vurb_test

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/observe"
	"github.com/vurb-go/vurb/vurbtest"
)

type whoIn struct{}

type whoOut struct {
	Subject  string   `json:"subject"`
	Scopes   []string `json:"scopes"`
	Tenant   string   `json:"tenant"`
	Protocol string   `json:"protocol"`
	Session  bool     `json:"session"`
	Client   string   `json:"client"`
	Key      string   `json:"key"`
	Tags     []string `json:"tags"`
	ReadOnly bool     `json:"readOnly"`
}

// whoApp has a "who" query that reports its caller, a scoped mutation, a
// prompt and a resource that report theirs.
func whoApp(opts ...vurb.Option) *vurb.App {
	app := vurb.New(opts...)
	who := func(ctx context.Context, _ whoIn) (whoOut, error) {
		c := vurb.CallerFrom(ctx)
		call := vurb.CallFrom(ctx)
		out := whoOut{Subject: c.Subject(), Scopes: c.Scopes(), Protocol: c.Protocol, Session: c.SessionID != "",
			Key: call.Key, Tags: call.Tags(), ReadOnly: call.Annotations().ReadOnlyHint}
		if c.Header != nil {
			out.Tenant = c.Header.Get("X-Tenant")
		}
		if c.Client != nil {
			out.Client = c.Client.Name
		}
		return out, nil
	}
	vurb.Query(app.Tool("account").Tags("core"), "who", who)
	vurb.Mutation(app.Tool("projects"), "delete", func(ctx context.Context, _ whoIn) (string, error) {
		return "deleted by " + vurb.CallerFrom(ctx).Subject(), nil
	}).RequireScopes("projects:write")
	vurb.Query(app.Tool("projects"), "list", func(context.Context, whoIn) (string, error) { return "p1", nil })
	vurb.Prompt(app, "greet", func(ctx context.Context, _ struct{}) (string, error) {
		return "hello " + vurb.CallerFrom(ctx).Subject(), nil
	})
	vurb.Resource(app, "mem://whoami", "whoami", func(ctx context.Context) (vurb.Contents, error) {
		return vurb.Contents{Text: vurb.CallerFrom(ctx).Subject()}, nil
	})
	return app
}

// callerTransports are the ways a caller reaches a server: each reads the
// caller from its own place (the go-sdk's request, the fast lane's).
var callerTransports = []struct {
	name string
	opts []vurbtest.Option
}{
	{"in memory", nil},
	{"HTTP session", []vurbtest.Option{vurbtest.OverHTTP()}},
	{"HTTP sessionless (fast lane)", []vurbtest.Option{vurbtest.OverHTTP(), vurbtest.Protocol(vurbtest.Sessionless)}},
}

func TestTheCallerReachesHandlersOnEveryTransport(t *testing.T) {
	for _, tc := range callerTransports {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			id := vurbtest.Identity{Token: &auth.TokenInfo{UserID: "alice", Scopes: []string{"projects:read"}},
				Header: http.Header{"X-Tenant": {"acme"}}}
			c := vurbtest.New(t, whoApp(), append(tc.opts, id)...)
			out := vurbtest.Call[whoOut](c, "account_who", nil)
			is.Equal(out.Subject, "alice")
			is.Equal(out.Scopes, []string{"projects:read"})
			if tc.opts != nil {
				is.Equal(out.Tenant, "acme") // the request's own headers
			}
			is.Equal(out.Protocol, c.Protocol())
			is.Equal(out.Session, tc.name == "HTTP session") // in memory and sessionless requests have no session id
			is.True(out.Client != "")
			is.Equal(out.Key, "account.who")
			is.True(slices.Contains(out.Tags, "core"))
			is.True(out.ReadOnly) // a query's own annotation
			is.Equal(c.GetPrompt("greet", nil).Messages[0].Content.(*mcp.TextContent).Text, "hello alice")
			is.Equal(c.ReadResource("mem://whoami").Contents[0].Text, "alice")
		})
	}
}

func TestAnInProcessCallRunsAsTheContextsCaller(t *testing.T) {
	is := is.New(t)
	app := whoApp()
	ctx := vurb.ContextWithCaller(context.Background(), &vurb.Caller{Token: &auth.TokenInfo{UserID: "bob", Scopes: []string{"projects:write"}}})
	res, err := app.Call(ctx, "projects_delete", nil)
	is.NoErr(err)
	is.Equal(vurbtest.Text(res), "deleted by bob")
	res, err = app.Call(context.Background(), "projects_delete", nil)
	is.NoErr(err)
	is.True(res.IsError) // anonymous: no scope
}

func TestScopesHideActionsAndRefuseCallsNamingThem(t *testing.T) {
	for _, tc := range callerTransports {
		for _, grouped := range []bool{false, true} {
			name := tc.name
			if grouped {
				name += " grouped"
			}
			t.Run(name, func(t *testing.T) {
				is := is.New(t)
				var opts []vurb.Option
				callName, args := "projects_delete", map[string]any{}
				if grouped {
					opts = append(opts, vurb.WithExposition(vurb.Grouped))
					callName, args = "projects", map[string]any{"action": "delete"}
				}
				reader := vurbtest.Identity{Token: &auth.TokenInfo{UserID: "r", Scopes: []string{"projects:read"}}}
				c := vurbtest.New(t, whoApp(opts...), append(tc.opts, reader)...)
				text := toolsText(c.Tools())
				is.True(!strings.Contains(text, "delete")) // absent from the reader's list
				is.True(strings.Contains(text, "projects"))
				msg := c.CallError(callName, args)
				is.True(strings.Contains(msg, "projects:write")) // names the scope missing

				writer := vurbtest.Identity{Token: &auth.TokenInfo{UserID: "w", Scopes: []string{"projects:write"}}}
				c = vurbtest.New(t, whoApp(opts...), append(tc.opts, writer)...)
				is.True(strings.Contains(toolsText(c.Tools()), "delete"))
				is.Equal(c.CallText(callName, args), "deleted by w")
			})
		}
	}
}

// toolsText is the names, descriptions and schemas of tools, for
// searching.
func toolsText(tools []*mcp.Tool) string {
	var b strings.Builder
	for _, t := range tools {
		b.WriteString(t.Name + " " + t.Description + " ")
		if s, ok := t.InputSchema.(map[string]any); ok {
			for k := range s {
				b.WriteString(k + " ")
			}
		}
		raw, _ := jsonText(t.InputSchema)
		b.WriteString(raw + "\n")
	}
	return b.String()
}

func TestVisibilityGivesEachClassOfCallerItsOwnTools(t *testing.T) {
	byRole := vurb.WithVisibility(
		func(c *vurb.Caller) string { return c.Header.Get("X-Role") },
		func(role string, a vurb.ActionInfo) bool { return role == "admin" || a.Annotations.ReadOnlyHint },
	)
	for _, tc := range callerTransports {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			token := &auth.TokenInfo{UserID: "u", Scopes: []string{"projects:write"}}
			guest := vurbtest.New(t, whoApp(byRole, vurb.WithExposition(vurb.Grouped)),
				append(tc.opts, vurbtest.Identity{Token: token, Header: http.Header{"X-Role": {"guest"}}})...)
			is.True(!strings.Contains(toolsText(guest.Tools()), "delete"))
			msg := guest.CallError("projects", map[string]any{"action": "delete"})
			is.True(strings.Contains(msg, "delete")) // an unknown action, as a filter makes it
			is.True(!strings.Contains(msg, "projects:write"))
			is.Equal(guest.CallText("projects", map[string]any{"action": "list"}), "p1")

			admin := vurbtest.New(t, whoApp(byRole, vurb.WithExposition(vurb.Grouped)),
				append(tc.opts, vurbtest.Identity{Token: token, Header: http.Header{"X-Role": {"admin"}}})...)
			is.True(strings.Contains(toolsText(admin.Tools()), "delete"))
			is.Equal(admin.CallText("projects", map[string]any{"action": "delete"}), "deleted by u")
		})
	}
}

func TestVisibilityHidesAFlatToolAsUnknown(t *testing.T) {
	is := is.New(t)
	app := whoApp(vurb.WithVisibility(func(*vurb.Caller) string { return "" },
		func(_ string, a vurb.ActionInfo) bool { return a.Tool != "projects" }))
	c := vurbtest.New(t, app)
	is.Equal(len(c.Tools()), 1)
	_, err := c.CallResult("projects_list", nil)
	var rpcErr *jsonrpc.Error
	is.True(errors.As(err, &rpcErr))
	is.Equal(rpcErr.Code, int64(jsonrpc.CodeInvalidParams))
}

func TestRequestMiddlewareGuardsPromptsAndResourcesToo(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	guard := func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			mu.Lock()
			seen = append(seen, method)
			mu.Unlock()
			switch method {
			case "tools/call", "prompts/get", "resources/read":
				if extra := req.GetExtra(); extra == nil || extra.TokenInfo == nil {
					return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "sign in first"}
				}
			}
			return next(ctx, method, req)
		}
	}
	for _, tc := range []struct {
		name string
		opts []vurbtest.Option
	}{
		{"in memory", nil},
		{"HTTP sessionless (fast lane)", []vurbtest.Option{vurbtest.OverHTTP(), vurbtest.Protocol(vurbtest.Sessionless)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			app := whoApp(vurb.WithRequestMiddleware(guard))
			anon := vurbtest.New(t, app, tc.opts...)
			_, err := anon.CallResult("account_who", nil)
			is.True(err != nil && strings.Contains(err.Error(), "sign in first"))
			is.True(strings.Contains(anon.GetPromptError("greet", nil).Error(), "sign in first"))
			is.True(strings.Contains(anon.ReadResourceError("mem://whoami").Error(), "sign in first"))

			alice := vurbtest.New(t, app, append(tc.opts, vurbtest.Identity{Token: &auth.TokenInfo{UserID: "alice"}})...)
			is.Equal(vurbtest.Call[whoOut](alice, "account_who", nil).Subject, "alice")
			is.Equal(len(alice.Tools()), 2) // projects_delete needs a scope alice lacks
			mu.Lock()
			is.True(slices.Contains(seen, "tools/list"))
			mu.Unlock()
		})
	}
}

func TestAppScopesGuardPromptsAndResources(t *testing.T) {
	is := is.New(t)
	app := whoApp().RequireScopes("mcp:use")
	anon := vurbtest.New(t, app)
	is.True(strings.Contains(anon.GetPromptError("greet", nil).Error(), "mcp:use"))
	is.True(strings.Contains(anon.ReadResourceError("mem://whoami").Error(), "mcp:use"))
	is.Equal(len(anon.Tools()), 0)

	ok := vurbtest.New(t, whoApp().RequireScopes("mcp:use"), vurbtest.Identity{Token: &auth.TokenInfo{UserID: "a", Scopes: []string{"mcp:use"}}})
	is.Equal(ok.ReadResource("mem://whoami").Contents[0].Text, "a")
}

func TestObserversComposeAndLogsCarryContext(t *testing.T) {
	is := is.New(t)
	type traceKey struct{}
	var mu sync.Mutex
	var a, b int
	var logs syncBuffer
	app := vurb.New(
		vurb.WithObserver(func(context.Context, observe.Event) { mu.Lock(); a++; mu.Unlock() }),
		vurb.WithObserver(func(context.Context, observe.Event) { mu.Lock(); b++; mu.Unlock() }),
		vurb.WithLogger(slog.New(slog.NewTextHandler(&logs, nil))),
		vurb.WithLogContext(func(ctx context.Context) []slog.Attr {
			if id, ok := ctx.Value(traceKey{}).(string); ok {
				return []slog.Attr{slog.String("trace_id", id)}
			}
			return nil
		}),
		vurb.WithRequestMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
			return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
				return next(context.WithValue(ctx, traceKey{}, "t-123"), method, req)
			}
		}),
	)
	vurb.Query(app.Tool("x"), "log", func(ctx context.Context, _ whoIn) (string, error) {
		vurb.Logger(ctx).Info("hello")
		return "ok", nil
	})
	c := vurbtest.New(t, app)
	is.Equal(c.CallText("x_log", nil), "ok")
	mu.Lock()
	is.True(a > 0 && a == b)
	mu.Unlock()
	is.True(strings.Contains(logs.String(), "trace_id=t-123"))
}

func jsonText(v any) (string, error) {
	raw, err := json.Marshal(v)
	return string(raw), err
}

func TestLogContextsCompose(t *testing.T) {
	is := is.New(t)
	var logs syncBuffer
	attr := func(k, v string) func(context.Context) []slog.Attr {
		return func(context.Context) []slog.Attr { return []slog.Attr{slog.String(k, v)} }
	}
	app := vurb.New(vurb.WithLogger(slog.New(slog.NewTextHandler(&logs, nil))),
		vurb.WithLogContext(attr("a", "1")), vurb.WithLogContext(attr("b", "2")))
	vurb.Query(app.Tool("x"), "log", func(ctx context.Context, _ whoIn) (string, error) {
		vurb.Logger(ctx).Info("hello")
		return "ok", nil
	})
	res, err := app.Call(context.Background(), "x_log", nil)
	is.NoErr(err)
	is.True(!res.IsError)
	is.True(strings.Contains(logs.String(), "a=1 b=2"))
}

// TestAttachedToolsAreListedPerCaller: attached to a server of the user's
// own, the app's tools are listed per caller; the server's own tools stay.
func TestAttachedToolsAreListedPerCaller(t *testing.T) {
	is := is.New(t)
	app := whoApp(vurb.WithVisibility(
		func(c *vurb.Caller) string { return c.Header.Get("X-Role") },
		func(role string, a vurb.ActionInfo) bool { return role == "admin" || a.Tool != "account" },
	))
	server := mcp.NewServer(&mcp.Implementation{Name: "own"}, nil)
	server.AddTool(&mcp.Tool{Name: "own_tool", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{}, nil
		})
	app.Attach(server)
	ctx := context.Background()
	for _, tc := range []struct {
		role string
		want []string
	}{
		{"guest", []string{"own_tool", "projects_list"}}, // projects_delete needs a scope nobody here has
		{"admin", []string{"account_who", "own_tool", "projects_list"}},
	} {
		srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil))
		client := &http.Client{Transport: headerRoundTripper{"X-Role": tc.role}}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "t"}, nil).Connect(ctx,
			&mcp.StreamableClientTransport{Endpoint: srv.URL, HTTPClient: client}, nil)
		is.NoErr(err)
		is.Equal(listNames(t, cs), tc.want)
		cs.Close()
		srv.Close()
	}
}

// headerRoundTripper sets its headers on every request.
type headerRoundTripper map[string]string

func (h headerRoundTripper) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range h {
		r.Header.Set(k, v)
	}
	return http.DefaultTransport.RoundTrip(r)
}

// TestTheManifestShowsEachCallerWhatItSees: the published manifest names no
// action the caller's scopes or class hide, as its tools/list does not.
func TestTheManifestShowsEachCallerWhatItSees(t *testing.T) {
	byRole := vurb.WithVisibility(
		func(c *vurb.Caller) string { return c.Header.Get("X-Role") },
		func(role string, a vurb.ActionInfo) bool { return role != "guest" || a.Tool != "account" },
	)
	for _, tc := range callerTransports {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			app := whoApp(byRole)
			app.PublishManifest()
			read := func(id vurbtest.Identity) string {
				c := vurbtest.New(t, app, append(tc.opts, id)...)
				res := c.ReadResource("vurb://manifest")
				is.Equal(len(res.Contents), 1)
				return res.Contents[0].Text
			}
			reader := &auth.TokenInfo{UserID: "r", Scopes: []string{"projects:read"}}
			writer := &auth.TokenInfo{UserID: "w", Scopes: []string{"projects:write"}}
			member := read(vurbtest.Identity{Token: reader, Header: http.Header{"X-Role": {"member"}}})
			is.True(strings.Contains(member, "projects_list"))
			is.True(strings.Contains(member, "account_who"))
			is.True(!strings.Contains(member, "projects_delete")) // lacks projects:write
			is.True(strings.Contains(read(vurbtest.Identity{Token: writer, Header: http.Header{"X-Role": {"member"}}}), "projects_delete"))
			guest := read(vurbtest.Identity{Token: writer, Header: http.Header{"X-Role": {"guest"}}})
			is.True(!strings.Contains(guest, "account_who")) // hidden from guests
			is.True(strings.Contains(guest, "projects_delete"))
			// The first reader's manifest was not served from the cache to the others.
			is.True(!strings.Contains(read(vurbtest.Identity{Token: reader, Header: http.Header{"X-Role": {"member"}}}), "projects_delete"))
		})
	}
}

// TestAPanickingObserverStarvesNoOther holds the README's word: several
// observers all receive every event, and a panicking one is contained.
func TestAPanickingObserverStarvesNoOther(t *testing.T) {
	is := is.New(t)
	var first, third atomic.Int32
	finished := func(n *atomic.Int32) observe.Observer {
		return func(_ context.Context, e observe.Event) {
			if e.Kind == observe.CallFinished {
				n.Add(1)
			}
		}
	}
	app := vurb.New(vurb.WithLogger(slog.New(slog.DiscardHandler)),
		vurb.WithObserver(finished(&first)),
		vurb.WithObserver(func(_ context.Context, e observe.Event) {
			if e.Kind == observe.CallFinished {
				panic("observer bug")
			}
		}),
		vurb.WithObserver(finished(&third)))
	vurb.Query(app, "notes.list", func(context.Context, struct{}) (string, error) { return "notes", nil })
	for range 3 {
		res, err := app.Call(context.Background(), "notes_list", nil)
		is.NoErr(err)
		is.True(!res.IsError)
	}
	is.Equal(first.Load(), int32(3))
	is.Equal(third.Load(), int32(3)) // not starved by the second's panic
}
