package vurb_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"github.com/vurb-go/vurb"
)

// opaqueTokens is a verifier of opaque tokens: the ones it knows.
func opaqueTokens(tokens map[string]*auth.TokenInfo) auth.TokenVerifier {
	return func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		if info, ok := tokens[token]; ok {
			return info, nil
		}
		return nil, fmt.Errorf("%w: unknown token", auth.ErrInvalidToken)
	}
}

// protectedServer serves app behind WithBearerAuth on a loopback server whose
// resource URL (http://127.0.0.1:PORT/mcp) is known before the handler is
// made, with the handler at / (the MCP endpoint and the metadata paths
// alike).
func protectedServer(t *testing.T, app *vurb.App, verifier func(resource string) auth.TokenVerifier, bearer *auth.RequireBearerTokenOptions, opts ...vurb.ServeOption) (srv *httptest.Server, resource string) {
	t.Helper()
	srv = httptest.NewUnstartedServer(nil)
	base := "http://" + srv.Listener.Addr().String()
	resource = base + "/mcp"
	meta := &oauthex.ProtectedResourceMetadata{Resource: resource, AuthorizationServers: []string{"https://issuer.example"}}
	srv.Config.Handler = app.HTTPHandler(append(opts, vurb.WithBearerAuth(verifier(resource), meta, bearer))...)
	srv.Start()
	t.Cleanup(srv.Close)
	return srv, resource
}

// bearerTransport sends the token it holds now with every request.
type bearerTransport struct {
	base  http.RoundTripper
	token atomic.Pointer[string]
}

func (b *bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	if tok := b.token.Load(); tok != nil {
		r.Header.Set("Authorization", "Bearer "+*tok)
	}
	return b.base.RoundTrip(r)
}

func (b *bearerTransport) set(token string) { b.token.Store(&token) }

// bearerClient connects a go-sdk client to endpoint, sending token, with
// revision protocol.
func bearerClient(ctx context.Context, endpoint, protocol, token string) (*mcp.ClientSession, *bearerTransport, error) {
	bt := &bearerTransport{base: http.DefaultTransport}
	if token != "" {
		bt.set(token)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bearer-client", Version: "1"}, nil).Connect(ctx,
		&mcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: &http.Client{Transport: bt}, DisableStandaloneSSE: true},
		&mcp.ClientSessionOptions{ProtocolVersion: protocol})
	return cs, bt, err
}

// audience is a verifier's own type for the "aud" claim.
type audience []string

func TestBearerAuthChallenges(t *testing.T) {
	app := vurb.New()
	vurb.Query(app, "projects.list", func(context.Context, noInput) (string, error) { return "p1 p2", nil })
	soon := time.Now().Add(time.Hour)
	tokens := func(resource string) auth.TokenVerifier {
		return opaqueTokens(map[string]*auth.TokenInfo{
			"reader":    {UserID: "alice", Scopes: []string{"projects:read"}, Expiration: soon},
			"no-scope":  {UserID: "alice", Expiration: soon},
			"elsewhere": {UserID: "alice", Scopes: []string{"projects:read"}, Expiration: soon, Extra: map[string]any{"aud": []any{"https://other.example/mcp"}}},
			"for-us":    {UserID: "alice", Scopes: []string{"projects:read"}, Expiration: soon, Extra: map[string]any{"aud": resource + "/"}},
			"expired":   {UserID: "alice", Scopes: []string{"projects:read"}, Expiration: time.Now().Add(-time.Minute)},
			// Verifiers put audiences in types of their own (go-jose's
			// jwt.Audience is a named []string): read, not skipped.
			"named-elsewhere": {UserID: "alice", Scopes: []string{"projects:read"}, Expiration: soon, Extra: map[string]any{"aud": audience{"https://other.example/mcp"}}},
			"named-for-us":    {UserID: "alice", Scopes: []string{"projects:read"}, Expiration: soon, Extra: map[string]any{"aud": audience{"x", resource}}},
			"odd-audience":    {UserID: "alice", Scopes: []string{"projects:read"}, Expiration: soon, Extra: map[string]any{"aud": 42}},
		})
	}
	srv, resource := protectedServer(t, app, tokens, &auth.RequireBearerTokenOptions{Scopes: []string{"projects:read"}})
	metadataURL := srv.URL + "/.well-known/oauth-protected-resource/mcp"
	sessionlessCall := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"projects_list","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
	for _, tc := range []struct {
		name, authorization, body string
		status                    int
		challenge                 string
	}{
		{"no token", "", initialize, 401, `Bearer resource_metadata="` + metadataURL + `", scope="projects:read"`},
		{"not a bearer", "Basic YWxpY2U6c2VjcmV0", initialize, 401, `Bearer resource_metadata="` + metadataURL + `", scope="projects:read"`},
		{"unknown token", "Bearer forged", initialize, 401, `Bearer error="invalid_token", resource_metadata="` + metadataURL + `", scope="projects:read"`},
		{"expired", "Bearer expired", initialize, 401, `Bearer error="invalid_token", resource_metadata="` + metadataURL + `", scope="projects:read"`},
		{"another audience", "Bearer elsewhere", initialize, 401, `Bearer error="invalid_token", resource_metadata="` + metadataURL + `", scope="projects:read"`},
		{"missing scope", "Bearer no-scope", initialize, 403, `Bearer error="insufficient_scope", resource_metadata="` + metadataURL + `", scope="projects:read"`},
		{"valid", "Bearer reader", initialize, 200, ""},
		{"audience is us", "Bearer for-us", initialize, 200, ""},
		{"another audience, named type", "Bearer named-elsewhere", initialize, 401, `Bearer error="invalid_token", resource_metadata="` + metadataURL + `", scope="projects:read"`},
		{"audience is us, named type", "Bearer named-for-us", initialize, 200, ""},
		{"unreadable audience", "Bearer odd-audience", initialize, 401, `Bearer error="invalid_token", resource_metadata="` + metadataURL + `", scope="projects:read"`},
		// Sessionless requests are the fast lane's: it is behind the check too.
		{"lane, no token", "", sessionlessCall, 401, `Bearer resource_metadata="` + metadataURL + `", scope="projects:read"`},
		{"lane, valid", "Bearer reader", sessionlessCall, 200, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			header := map[string]string{"Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "projects_list"}
			if tc.body == initialize {
				header = map[string]string{}
			}
			if tc.authorization != "" {
				header["Authorization"] = tc.authorization
			}
			res := post(t, resource, header, tc.body)
			is.Equal(res.StatusCode, tc.status)
			is.Equal(res.Header.Get("WWW-Authenticate"), tc.challenge)
		})
	}
}

func TestBearerAuthMetadata(t *testing.T) {
	is := is.New(t)
	app := vurb.New()
	vurb.Query(app, "projects.list", func(context.Context, noInput) (string, error) { return "p1", nil })
	vurb.Mutation(app, "projects.delete", func(context.Context, noInput) (string, error) { return "gone", nil }).
		RequireScopes("projects:write")
	srv, resource := protectedServer(t, app, func(string) auth.TokenVerifier { return opaqueTokens(nil) }, nil)
	ctx := context.Background()

	// The challenge names the document; the go-sdk's client reads both.
	res := post(t, resource, nil, `{"jsonrpc":"2.0","id":1,"method":"ping"}`)
	res.Body.Close()
	challenges, err := oauthex.ParseWWWAuthenticate(res.Header.Values("WWW-Authenticate"))
	is.NoErr(err)
	is.Equal(len(challenges), 1)
	is.Equal(challenges[0].Scheme, "bearer")
	metadataURL := challenges[0].Params["resource_metadata"]
	is.Equal(metadataURL, srv.URL+"/.well-known/oauth-protected-resource/mcp") // RFC 9728 §3.1: the resource's path follows
	for _, u := range []string{metadataURL, srv.URL + "/.well-known/oauth-protected-resource"} {
		doc, err := oauthex.GetProtectedResourceMetadata(ctx, u, resource, srv.Client())
		is.NoErr(err) // it names this resource
		is.Equal(doc.AuthorizationServers, []string{"https://issuer.example"})
		is.Equal(doc.ScopesSupported, []string{"projects:write"}) // the app's, since the metadata listed none
	}

	// Public, and cross-origin: browsers' clients read it.
	req, _ := http.NewRequest(http.MethodGet, metadataURL, nil)
	req.Header.Set("Origin", "https://elsewhere.example")
	got, err := srv.Client().Do(req)
	is.NoErr(err)
	got.Body.Close()
	is.Equal(got.StatusCode, 200)
	is.Equal(got.Header.Get("Access-Control-Allow-Origin"), "*")

	// A go-sdk client without a token cannot connect.
	_, _, err = bearerClient(ctx, resource, clientProtocol, "")
	is.True(err != nil)
	is.True(strings.Contains(err.Error(), "Unauthorized"))
}

func TestBearerAuthListenAndServe(t *testing.T) {
	is := is.New(t)
	app := vurb.New()
	vurb.Query(app, "projects.list", func(context.Context, noInput) (string, error) { return "p1 p2", nil })
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	is.NoErr(err)
	base := "http://" + ln.Addr().String()
	resource := base + "/mcp"
	verify := opaqueTokens(map[string]*auth.TokenInfo{"t": {UserID: "alice", Expiration: time.Now().Add(time.Hour)}})
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() {
		served <- app.ServeListener(ctx, ln, vurb.WithBearerAuth(verify, &oauthex.ProtectedResourceMetadata{Resource: resource}, nil))
	}()
	defer func() { stop(); is.NoErr(<-served) }()

	for _, path := range []string{"/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"} {
		_, err := oauthex.GetProtectedResourceMetadata(ctx, base+path, resource, http.DefaultClient)
		is.NoErr(err)
	}
	for _, protocol := range []string{clientProtocol, "2026-07-28"} {
		cs, _, err := bearerClient(ctx, resource, protocol, "t")
		is.NoErr(err)
		res, err := callRaw(t, cs, "projects_list", "{}")
		is.NoErr(err)
		is.Equal(text(res), "p1 p2")
		cs.Close()
	}
}

func TestBearerAuthRefusesWhatCannotWork(t *testing.T) {
	verify := opaqueTokens(nil)
	for _, tc := range []struct {
		name     string
		verifier auth.TokenVerifier
		meta     *oauthex.ProtectedResourceMetadata
		says     string
	}{
		{"no verifier", nil, &oauthex.ProtectedResourceMetadata{Resource: "https://mcp.example.com/mcp"}, "needs a token verifier"},
		{"no metadata", verify, nil, "needs metadata.Resource"},
		{"relative resource", verify, &oauthex.ProtectedResourceMetadata{Resource: "/mcp"}, `metadata.Resource "/mcp" must be an absolute URL`},
		{"fragment", verify, &oauthex.ProtectedResourceMetadata{Resource: "https://mcp.example.com/mcp#x"}, "without a fragment"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				r := fmt.Sprint(recover())
				is.New(t).True(strings.Contains(r, tc.says))
			}()
			vurb.WithBearerAuth(tc.verifier, tc.meta, nil)
		})
	}
	t.Run("not over stdio", func(t *testing.T) {
		defer func() {
			r := fmt.Sprint(recover())
			is.New(t).True(strings.Contains(r, "WithBearerAuth only apply to HTTP"))
		}()
		vurb.New().NewServer(vurb.WithBearerAuth(verify, &oauthex.ProtectedResourceMetadata{Resource: "https://mcp.example.com/mcp"}, nil))
	})
}
