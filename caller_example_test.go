package vurb_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"github.com/vurb-go/vurb"
)

type noArgs struct{}

// A handler reads who is calling from its context. In-process, the caller
// comes from ContextWithCaller; served, from the request (its verified
// token, its headers, its _meta).
func ExampleCallerFrom() {
	app := vurb.New()
	vurb.Query(app.Tool("account"), "whoami", func(ctx context.Context, _ noArgs) (string, error) {
		c := vurb.CallerFrom(ctx)
		return fmt.Sprintf("%s %v", c.Subject(), c.Scopes()), nil
	})
	ctx := vurb.ContextWithCaller(context.Background(),
		&vurb.Caller{Token: &auth.TokenInfo{UserID: "alice", Scopes: []string{"projects:read"}}})
	res, _ := app.Call(ctx, "account_whoami", nil)
	fmt.Println(res.Content[0].(*mcp.TextContent).Text)
	// Output: alice [projects:read]
}

// An action that needs a scope refuses a caller without it, naming the
// scope, and is absent from that caller's tools/list.
func ExampleActionDef_RequireScopes() {
	app := vurb.New()
	vurb.Mutation(app.Tool("projects"), "delete", func(context.Context, noArgs) (string, error) {
		return "deleted", nil
	}).RequireScopes("projects:write")

	reader := vurb.ContextWithCaller(context.Background(),
		&vurb.Caller{Token: &auth.TokenInfo{UserID: "r", Scopes: []string{"projects:read"}}})
	res, _ := app.Call(reader, "projects_delete", nil)
	fmt.Println(res.IsError)
	fmt.Println(res.Content[0].(*mcp.TextContent).Text)

	writer := vurb.ContextWithCaller(context.Background(),
		&vurb.Caller{Token: &auth.TokenInfo{UserID: "w", Scopes: []string{"projects:write"}}})
	res, _ = app.Call(writer, "projects_delete", nil)
	fmt.Println(res.Content[0].(*mcp.TextContent).Text)
	// Output:
	// true
	// [projects_delete] refused: this action needs the OAuth scope(s) projects:write, which the caller's token does not grant; ask the user to sign in again granting them, or use another action
	// deleted
}

// Each role lists and calls what it may. The role is a claim of the
// verified token, never a header the client writes: a forged "X-Role:
// admin" would be believed.
func ExampleWithVisibility() {
	role := func(c *vurb.Caller) string {
		if c.Token == nil {
			return "" // anonymous
		}
		r, _ := c.Token.Extra["role"].(string)
		return r
	}
	app := vurb.New(vurb.WithVisibility(role,
		func(role string, a vurb.ActionInfo) bool { return role == "admin" || a.Annotations.ReadOnlyHint },
	))
	vurb.Query(app.Tool("users"), "list", func(context.Context, noArgs) (string, error) { return "ann, bob", nil })
	vurb.Mutation(app.Tool("users"), "ban", func(context.Context, noArgs) (string, error) { return "banned", nil })
	tokens := map[string]*auth.TokenInfo{ // what your verifier (oidc.NewVerifier) reads from a token
		"guest-token": {UserID: "gus", Expiration: time.Now().Add(time.Hour), Extra: map[string]any{"role": "guest"}},
		"admin-token": {UserID: "ada", Expiration: time.Now().Add(time.Hour), Extra: map[string]any{"role": "admin"}},
	}
	verify := func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		if info, ok := tokens[token]; ok {
			return info, nil
		}
		return nil, auth.ErrInvalidToken
	}
	srv := httptest.NewUnstartedServer(nil)
	resource := "http://" + srv.Listener.Addr().String()
	srv.Config.Handler = app.HTTPHandler(vurb.WithBearerAuth(verify, &oauthex.ProtectedResourceMetadata{Resource: resource}, nil))
	srv.Start()
	defer srv.Close()

	for _, who := range []string{"guest", "admin"} {
		client := &http.Client{Transport: bearer(who + "-token")}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "example"}, nil).
			Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: srv.URL, HTTPClient: client}, nil)
		if err != nil {
			fmt.Println(err)
			return
		}
		list, _ := cs.ListTools(context.Background(), nil)
		var names []string
		for _, t := range list.Tools {
			names = append(names, t.Name)
		}
		_, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "users_ban"})
		fmt.Println(who, names, err != nil)
		cs.Close()
	}
	// Output:
	// guest [users_list] true
	// admin [users_ban users_list] false
}

// bearer sends its token with every request.
type bearer string

func (b bearer) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.Header.Set("Authorization", "Bearer "+string(b))
	return http.DefaultTransport.RoundTrip(req)
}

// A request middleware sees every request, of any method: here one rule
// keeps anonymous callers out of tools, prompts and resources alike.
func ExampleWithRequestMiddleware() {
	signedIn := func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			switch method {
			case "tools/call", "prompts/get", "resources/read":
				if extra := req.GetExtra(); extra == nil || extra.TokenInfo == nil {
					return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "sign in first"}
				}
			}
			return next(ctx, method, req)
		}
	}
	app := vurb.New(vurb.WithRequestMiddleware(signedIn))
	vurb.Query(app.Tool("docs"), "search", func(context.Context, noArgs) (string, error) { return "found", nil })
	vurb.Prompt(app, "summary", func(context.Context, struct{}) (string, error) { return "summarise", nil })

	serverT, clientT := mcp.NewInMemoryTransports()
	ss, _ := app.NewServer().Connect(context.Background(), serverT, nil)
	defer ss.Close()
	cs, _ := mcp.NewClient(&mcp.Implementation{Name: "example"}, nil).Connect(context.Background(), clientT, nil)
	defer cs.Close()
	_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "docs_search"})
	fmt.Println(err)
	_, err = cs.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: "summary"})
	fmt.Println(err)
	// Output:
	// calling "tools/call": sign in first
	// calling "prompts/get": sign in first
}

// The operator states who the local caller is: every request served over
// the transport (here an in-memory one; vurb.Stdio() for a desktop
// client) carries the token as its verified one, so the scoped action is
// listed and runs as alice.
func ExampleWithLocalToken() {
	app := vurb.New()
	vurb.Query(app.Tool("projects"), "list", func(ctx context.Context, _ noArgs) (string, error) {
		return "projects of " + vurb.CallerFrom(ctx).Subject(), nil
	}).RequireScopes("projects:read")

	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	serverEnd, clientEnd := mcp.NewInMemoryTransports()
	go app.Serve(ctx, serverEnd, vurb.WithLocalToken(&auth.TokenInfo{UserID: "alice", Scopes: []string{"projects:read"}}))

	client := mcp.NewClient(&mcp.Implementation{Name: "desktop", Version: "1"}, nil)
	session, err := client.Connect(ctx, clientEnd, nil)
	if err != nil {
		panic(err)
	}
	defer session.Close()
	list, _ := session.ListTools(ctx, nil)
	fmt.Println(list.Tools[0].Name)
	res, _ := session.CallTool(ctx, &mcp.CallToolParams{Name: "projects_list"})
	fmt.Println(res.Content[0].(*mcp.TextContent).Text)
	// Output:
	// projects_list
	// projects of alice
}
