package vurb_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"github.com/vurb-go/vurb"
)

// WithBearerAuth behind your own mux: the MCP endpoint and the RFC 9728
// metadata path go to the same handler. With tokens from an OpenID Connect
// issuer, the verifier is oidc.NewVerifier(ctx, issuer, resource) (see the
// oidc package); here it knows one opaque token.
func ExampleWithBearerAuth() {
	app := vurb.New(vurb.WithName("projects"))
	vurb.Query(app, "projects.list", func(context.Context, struct{}) ([]string, error) {
		return []string{"p1", "p2"}, nil
	})

	verify := func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		if token != "s3cret" { // an introspection endpoint or a database, in earnest
			return nil, fmt.Errorf("%w: unknown token", auth.ErrInvalidToken)
		}
		return &auth.TokenInfo{UserID: "alice", Scopes: []string{"projects:read"}, Expiration: time.Now().Add(time.Hour)}, nil
	}
	h := app.HTTPHandler(vurb.WithBearerAuth(verify, &oauthex.ProtectedResourceMetadata{
		Resource:             "https://mcp.example.com/mcp",
		AuthorizationServers: []string{"https://auth.example.com/"},
		ScopesSupported:      []string{"projects:read"},
	}, nil))
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	mux.Handle("/.well-known/oauth-protected-resource/mcp", h)

	// A request without a token is told where to look.
	ping := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "https://mcp.example.com/mcp", strings.NewReader(ping)))
	fmt.Println(rec.Code, rec.Header().Get("WWW-Authenticate"))

	// There, anyone reads which authorization server issues tokens.
	rec = httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "https://mcp.example.com/.well-known/oauth-protected-resource/mcp", nil))
	fmt.Print(rec.Code, " ", rec.Body.String())

	// A token that does not verify is refused, saying so.
	req := httptest.NewRequest(http.MethodPost, "https://mcp.example.com/mcp", strings.NewReader(ping))
	req.Header.Set("Authorization", "Bearer guessed")
	rec = httptest.NewRecorder()
	mux.ServeHTTP(rec, req)
	fmt.Println(rec.Code, rec.Header().Get("WWW-Authenticate"))
	// Output:
	// 401 Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
	// 200 {"resource":"https://mcp.example.com/mcp","authorization_servers":["https://auth.example.com/"],"scopes_supported":["projects:read"]}
	// 401 Bearer error="invalid_token", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
}

// WithScopeChallenges: a token without the scope an action needs is asked for
// it (MCP's step-up authorization) instead of the action being hidden.
func ExampleWithScopeChallenges() {
	app := vurb.New()
	vurb.Query(app, "projects.list", func(context.Context, struct{}) (string, error) { return "p1 p2", nil })
	vurb.Mutation(app, "projects.delete", func(context.Context, struct{}) (string, error) { return "deleted", nil }).
		RequireScopes("projects:write")

	verify := func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		if token != "reader" {
			return nil, fmt.Errorf("%w: unknown token", auth.ErrInvalidToken)
		}
		return &auth.TokenInfo{UserID: "alice", Scopes: []string{"projects:read"}, Expiration: time.Now().Add(time.Hour)}, nil
	}
	h := app.HTTPHandler(vurb.WithScopeChallenges(), vurb.WithBearerAuth(verify, &oauthex.ProtectedResourceMetadata{
		Resource:             "https://mcp.example.com/mcp",
		AuthorizationServers: []string{"https://auth.example.com/"},
	}, nil))

	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"projects_delete","arguments":{},` +
		`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
	req := httptest.NewRequest(http.MethodPost, "https://mcp.example.com/mcp", strings.NewReader(call))
	req.Header.Set("Authorization", "Bearer reader")
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	fmt.Println(rec.Code)
	fmt.Println(rec.Header().Get("WWW-Authenticate"))
	fmt.Print(rec.Body.String())
	// Output:
	// 403
	// Bearer error="insufficient_scope", scope="projects:write", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp", error_description="this operation needs more scopes"
	// insufficient scope: tools/call projects_delete needs projects:write
}
