package vurb_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/oidc"
	"golang.org/x/oauth2"
)

// countingTransport counts the requests it sends that are not discovery:
// the verifier's key set fetches.
type countingTransport struct{ keyFetches atomic.Int32 }

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if !strings.HasSuffix(r.URL.Path, "/.well-known/openid-configuration") {
		c.keyFetches.Add(1)
	}
	return http.DefaultTransport.RoundTrip(r)
}

// TestOpenIDProvider serves a vurb app with WithBearerAuth and the oidc
// verifier against a real OpenID Connect provider (oidc-provider, installed
// from npm, see startOpenIDProvider), and drives it with the go-sdk's
// client over HTTP, on both protocol generations: the 2025-11-25 session
// goes through the go-sdk's handler, the 2026-07-28 requests through the
// fast lane. Refused: no token, a token for another audience, a forged
// one, an expired one, another subject's on a session. Accepted: tokens
// signed before and after a key rotation. A scoped action is offered to,
// and runs for, only the tokens granting its scope, and its handler sees
// the subject and scopes of each request's own token.
func TestOpenIDProvider(t *testing.T) {
	if testing.Short() {
		t.Skip("installs and runs an OpenID Connect provider")
	}
	provider := startOpenIDProvider(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	app := vurb.New()
	vurb.Query(app, "projects.list", func(context.Context, noInput) (string, error) { return "p1 p2", nil })
	vurb.Mutation(app, "projects.delete", func(ctx context.Context, _ noInput) (string, error) {
		c := vurb.CallerFrom(ctx)
		return "deleted by " + c.Subject() + " holding " + strings.Join(c.Scopes(), " "), nil
	}).RequireScopes("projects:write")
	vurb.Query(app, "account.who", func(ctx context.Context, _ noInput) (string, error) {
		c := vurb.CallerFrom(ctx)
		return c.Subject() + " holding " + strings.Join(c.Scopes(), " "), nil
	})

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	must(t, err)
	resource := "http://" + ln.Addr().String() + "/mcp"
	keys := &countingTransport{}
	verify, err := oidc.NewVerifier(ctx, provider.issuer, resource, oidc.WithHTTPClient(&http.Client{Transport: keys}),
		oidc.WithKeyRefetchInterval(time.Second)) // a forged token may make at most one fetch a second
	must(t, err)
	serving, stop := context.WithCancel(ctx)
	served := make(chan error, 1)
	go func() {
		served <- app.ServeListener(serving, ln, vurb.WithShutdownGrace(time.Second), vurb.WithBearerAuth(verify, &oauthex.ProtectedResourceMetadata{
			Resource:             resource,
			AuthorizationServers: []string{provider.issuer},
			ScopesSupported:      []string{"projects:read", "projects:write"},
		}, nil))
	}()
	t.Cleanup(func() { stop(); <-served })

	// calls connects with token and lists and calls, on each generation.
	calls := func(t *testing.T, token string) {
		t.Helper()
		for _, protocol := range []string{"2025-11-25", "2026-07-28"} {
			cs, _, err := bearerClient(ctx, resource, protocol, token)
			if err != nil {
				t.Fatalf("%s: %v", protocol, err)
			}
			res, err := callRaw(t, cs, "projects_list", "{}")
			if err != nil || text(res) != "p1 p2" {
				t.Fatalf("%s: %v %v", protocol, text(res), err)
			}
			cs.Close()
		}
	}
	// refused asserts that a request with token gets 401 and the challenge.
	refused := func(t *testing.T, token, wantError string) {
		t.Helper()
		is := is.New(t)
		header := map[string]string{}
		if token != "" {
			header["Authorization"] = "Bearer " + token
		}
		res := post(t, resource, header, initialize)
		is.Equal(res.StatusCode, http.StatusUnauthorized)
		challenges, err := oauthex.ParseWWWAuthenticate(res.Header.Values("WWW-Authenticate"))
		is.NoErr(err)
		is.Equal(len(challenges), 1)
		is.Equal(challenges[0].Params["error"], wantError)
		is.True(challenges[0].Params["resource_metadata"] != "")
		for _, protocol := range []string{"2025-11-25", "2026-07-28"} {
			_, _, err := bearerClient(ctx, resource, protocol, token)
			is.True(err != nil) // the go-sdk client cannot connect
		}
	}

	t.Run("no token: 401 and the way to the issuer", func(t *testing.T) {
		is := is.New(t)
		refused(t, "", "")
		// What a client does next, with the go-sdk's own discovery: the
		// challenge names the resource metadata, which names the issuer,
		// whose metadata names the token endpoint.
		res := post(t, resource, nil, initialize)
		challenges, err := oauthex.ParseWWWAuthenticate(res.Header.Values("WWW-Authenticate"))
		is.NoErr(err)
		doc, err := oauthex.GetProtectedResourceMetadata(ctx, challenges[0].Params["resource_metadata"], resource, http.DefaultClient)
		is.NoErr(err)
		is.Equal(doc.AuthorizationServers, []string{provider.issuer})
		as, err := oauthex.GetAuthServerMeta(ctx, provider.issuer+"/.well-known/openid-configuration", provider.issuer, http.DefaultClient)
		is.NoErr(err)
		is.Equal(as.TokenEndpoint, provider.issuer+"/token")
	})

	t.Run("a valid token: the call runs", func(t *testing.T) {
		is := is.New(t)
		token := provider.token("alice", resource, "projects:read")
		is.Equal(jwtPart(t, token, 0)["typ"], "at+jwt") // a real RFC 9068 access token
		calls(t, token)
		calls(t, provider.token("bob", resource, ""))
		is.Equal(keys.keyFetches.Load(), int32(1)) // the keys were fetched once, then cached
	})

	t.Run("a token for another audience is refused", func(t *testing.T) {
		is := is.New(t)
		other := provider.token("alice", "http://127.0.0.1:9/mcp", "projects:read")
		is.Equal(jwtPart(t, other, 1)["aud"], "http://127.0.0.1:9/mcp")
		refused(t, other, "invalid_token")
	})

	t.Run("a forged token is refused", func(t *testing.T) {
		token := provider.token("alice", resource, "projects:read")
		parts := strings.Split(token, ".")
		claims := strings.Replace(string(mustDecode(t, parts[1])), `"sub":"alice"`, `"sub":"admin"`, 1)
		refused(t, parts[0]+"."+encodeSegment(claims)+"."+parts[2], "invalid_token")
	})

	t.Run("an expired token is refused", func(t *testing.T) {
		token := provider.token("brief", resource, "projects:read") // lives 2 s
		calls(t, token)
		exp := time.Unix(int64(jwtPart(t, token, 1)["exp"].(float64)), 0)
		time.Sleep(time.Until(exp) + 1100*time.Millisecond)
		refused(t, token, "invalid_token")
	})

	t.Run("the provider rotates its key: new tokens still verify", func(t *testing.T) {
		is := is.New(t)
		before := provider.token("alice", resource, "projects:read")
		fetches := keys.keyFetches.Load()
		kid := provider.rotate()
		after := provider.token("alice", resource, "projects:read")
		is.Equal(jwtPart(t, after, 0)["kid"], kid) // signed with the new key,
		is.True(jwtPart(t, before, 0)["kid"] != kid)
		time.Sleep(time.Second)                     // the keys may be fetched again once a second:
		calls(t, after)                             // which the server did not know:
		is.Equal(keys.keyFetches.Load(), fetches+1) // it fetched the keys again, once,
		calls(t, before)                            // and the old key, still published, still verifies
		is.Equal(keys.keyFetches.Load(), fetches+1)
	})

	// tools lists the tools session cs sees.
	tools := func(t *testing.T, cs *mcp.ClientSession) []string {
		t.Helper()
		res, err := cs.ListTools(ctx, nil)
		must(t, err)
		var names []string
		for _, tool := range res.Tools {
			names = append(names, tool.Name)
		}
		return names
	}

	t.Run("scopes per action: without the scope, no action", func(t *testing.T) {
		for _, protocol := range []string{"2025-11-25", "2026-07-28"} {
			t.Run(protocol, func(t *testing.T) {
				is := is.New(t)
				cs, _, err := bearerClient(ctx, resource, protocol, provider.token("alice", resource, "projects:read"))
				is.NoErr(err)
				defer cs.Close()
				is.Equal(tools(t, cs), []string{"account_who", "projects_list"}) // projects_delete is not offered
				res, err := callRaw(t, cs, "projects_delete", "{}")
				is.NoErr(err)
				is.True(res.IsError)
				is.Equal(text(res), "[projects_delete] refused: this action needs the OAuth scope(s) projects:write, "+
					"which the caller's token does not grant; ask the user to sign in again granting them, or use another action")
			})
		}
	})

	t.Run("scopes per action: with the scope, the handler sees who calls", func(t *testing.T) {
		for _, protocol := range []string{"2025-11-25", "2026-07-28"} {
			t.Run(protocol, func(t *testing.T) {
				is := is.New(t)
				cs, _, err := bearerClient(ctx, resource, protocol, provider.token("bob", resource, "projects:read projects:write"))
				is.NoErr(err)
				defer cs.Close()
				is.Equal(tools(t, cs), []string{"account_who", "projects_delete", "projects_list"})
				res, err := callRaw(t, cs, "projects_delete", "{}")
				is.NoErr(err)
				is.Equal(text(res), "deleted by bob holding projects:read projects:write")
			})
		}
	})

	t.Run("one session, the token changes between calls", func(t *testing.T) {
		is := is.New(t)
		cs, bt, err := bearerClient(ctx, resource, "2025-11-25", provider.token("alice", resource, "projects:read"))
		is.NoErr(err)
		defer cs.Close()
		res, err := callRaw(t, cs, "account_who", "{}")
		is.NoErr(err)
		is.Equal(text(res), "alice holding projects:read")
		is.Equal(tools(t, cs), []string{"account_who", "projects_list"})

		bt.set(provider.token("alice", resource, "projects:read projects:write")) // granted more
		res, err = callRaw(t, cs, "account_who", "{}")
		is.NoErr(err)
		is.Equal(text(res), "alice holding projects:read projects:write")
		is.Equal(tools(t, cs), []string{"account_who", "projects_delete", "projects_list"})
		res, err = callRaw(t, cs, "projects_delete", "{}")
		is.NoErr(err)
		is.Equal(text(res), "deleted by alice holding projects:read projects:write")

		bt.set(provider.token("alice", resource, "projects:read")) // and withdrawn
		res, err = callRaw(t, cs, "projects_delete", "{}")
		is.NoErr(err)
		is.True(res.IsError)
		is.True(strings.Contains(text(res), "needs the OAuth scope(s) projects:write"))
	})

	// The same app behind WithScopeChallenges, on a second listener: a client
	// that lacks a scope is challenged for it, goes to the issuer the
	// challenge leads to, and calls again with the token it gets.
	stepLn, err := net.Listen("tcp", "127.0.0.1:0")
	must(t, err)
	stepResource := "http://" + stepLn.Addr().String() + "/mcp"
	stepVerify, err := oidc.NewVerifier(ctx, provider.issuer, stepResource)
	must(t, err)
	stepServed := make(chan error, 1)
	go func() {
		stepServed <- app.ServeListener(serving, stepLn, vurb.WithShutdownGrace(time.Second), vurb.WithScopeChallenges(),
			vurb.WithBearerAuth(stepVerify, &oauthex.ProtectedResourceMetadata{
				Resource: stepResource, AuthorizationServers: []string{provider.issuer},
			}, nil))
	}()
	t.Cleanup(func() { stop(); <-stepServed })

	t.Run("step-up: challenged for a scope, granted it by the issuer, the call runs", func(t *testing.T) {
		for _, protocol := range []string{"2025-11-25", "2026-07-28"} {
			t.Run(protocol, func(t *testing.T) {
				is := is.New(t)
				client := &issuerStepUp{t: t, provider: provider, client: "alice", scopes: []string{"projects:read"}}
				cs, err := mcp.NewClient(&mcp.Implementation{Name: "step-up"}, nil).Connect(ctx,
					&mcp.StreamableClientTransport{Endpoint: stepResource, OAuthHandler: client, DisableStandaloneSSE: true},
					&mcp.ClientSessionOptions{ProtocolVersion: protocol})
				is.NoErr(err)
				defer cs.Close()
				is.Equal(tools(t, cs), []string{"account_who", "projects_delete", "projects_list"}) // offered, to be asked for
				res, err := callRaw(t, cs, "account_who", "{}")
				is.NoErr(err)
				is.Equal(text(res), "alice holding projects:read")
				res, err = callRaw(t, cs, "projects_delete", "{}")
				is.NoErr(err)
				is.Equal(text(res), "deleted by alice holding projects:read projects:write")
				is.Equal(client.asked, []string{"projects:write"}) // one challenge, naming what the call needs
			})
		}
	})

	t.Run("a session is bound to its subject", func(t *testing.T) {
		is := is.New(t)
		cs, bt, err := bearerClient(ctx, resource, "2025-11-25", provider.token("alice", resource, "projects:read"))
		is.NoErr(err)
		defer cs.Close()
		_, err = callRaw(t, cs, "projects_list", "{}")
		is.NoErr(err)
		bob := provider.token("bob", resource, "projects:read")
		bt.set(bob) // another user's token on alice's session
		_, err = callRaw(t, cs, "projects_list", "{}")
		is.True(err != nil)
		is.True(strings.Contains(err.Error(), "Forbidden"))
		// The go-sdk's answer, as the client does not show it:
		req, _ := http.NewRequest(http.MethodPost, resource, strings.NewReader(`{"jsonrpc":"2.0","id":9,"method":"tools/list"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Session-Id", cs.ID())
		req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
		req.Header.Set("Authorization", "Bearer "+bob)
		res, err := http.DefaultClient.Do(req)
		is.NoErr(err)
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		is.Equal(res.StatusCode, http.StatusForbidden)
		is.Equal(strings.TrimSpace(string(body)), "session user mismatch")
	})
}

func mustDecode(t *testing.T, segment string) []byte {
	t.Helper()
	b, err := base64RawURL.DecodeString(segment)
	must(t, err)
	return b
}

func encodeSegment(s string) string { return base64RawURL.EncodeToString([]byte(s)) }

// issuerStepUp is a machine client's OAuth handler doing MCP's step-up
// with a real issuer: on a 403 insufficient_scope it follows the
// challenge's resource_metadata to the authorization server, and asks its
// token endpoint (client credentials) for the scopes it holds and those
// the challenge names, for the resource the metadata names.
type issuerStepUp struct {
	t        *testing.T
	provider *openIDProvider
	client   string
	mu       sync.Mutex
	scopes   []string
	token    string
	asked    []string // the scopes each challenge named
}

func (h *issuerStepUp) TokenSource(ctx context.Context) (oauth2.TokenSource, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return oauth2.StaticTokenSource(&oauth2.Token{AccessToken: h.token, TokenType: "Bearer"}), nil
}

func (h *issuerStepUp) Authorize(ctx context.Context, req *http.Request, resp *http.Response) error {
	defer resp.Body.Close()
	challenges, err := oauthex.ParseWWWAuthenticate(resp.Header.Values("WWW-Authenticate"))
	if err != nil || len(challenges) != 1 {
		return fmt.Errorf("no challenge: %v", err)
	}
	params := challenges[0].Params
	if resp.StatusCode == http.StatusForbidden && params["error"] != "insufficient_scope" {
		return fmt.Errorf("refused: %s", params["error"])
	}
	resource := strings.TrimSuffix(req.URL.String(), "/")
	doc, err := oauthex.GetProtectedResourceMetadata(ctx, params["resource_metadata"], resource, http.DefaultClient)
	if err != nil {
		return err
	}
	as, err := oauthex.GetAuthServerMeta(ctx, doc.AuthorizationServers[0]+"/.well-known/openid-configuration", doc.AuthorizationServers[0], http.DefaultClient)
	if err != nil {
		return err
	}
	if as.TokenEndpoint != h.provider.issuer+"/token" {
		return fmt.Errorf("the metadata leads to %s", as.TokenEndpoint)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if resp.StatusCode == http.StatusForbidden {
		h.asked = append(h.asked, params["scope"])
	}
	for _, s := range strings.Fields(params["scope"]) {
		if !slices.Contains(h.scopes, s) {
			h.scopes = append(h.scopes, s)
		}
	}
	h.token = h.provider.token(h.client, doc.Resource, strings.Join(h.scopes, " "))
	return nil
}
