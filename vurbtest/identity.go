package vurbtest

import (
	"context"
	"fmt"
	"net/http"
	"reflect"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Identity is who a Client calls as, without an identity provider: a
// verified token and request headers. It is an Option:
//
//	alice := vurbtest.New(t, app, vurbtest.Identity{
//		Token:  &auth.TokenInfo{UserID: "alice", Scopes: []string{"projects:read"}},
//		Header: http.Header{"X-Tenant": {"acme"}},
//	})
//
// The server's go-sdk handlers receive it in every request's Extra
// (req.Extra.TokenInfo and req.Extra.Header), as they would behind a real
// verifier:
//
//   - in memory, vurbtest sets Extra on each request the server receives;
//     Header is then exactly the Identity's headers;
//   - over HTTP (OverHTTP), each request carries Header, and a Token is
//     sent as a bearer token that vurbtest's stand-in verifier, wrapped
//     around app.HTTPHandler with the go-sdk's auth.RequireBearerToken,
//     turns back into Token. An expired Token is refused there (401), as
//     the SDK refuses one; a Token without Expiration is accepted. Your own
//     middleware (OverHTTP's arguments) runs outside that verifier, so it
//     sees the headers and the bearer, not the TokenInfo.
//
// Handlers and middleware read it with vurb.CallerFrom (or Call.Caller),
// and the app's scopes (RequireScopes) and visibility rules
// (WithVisibility) see it: a test can check what each caller lists and may
// call.
type Identity struct {
	// Token is the verified token the server sees: user, scopes, expiry,
	// extra claims. Nil means an anonymous caller.
	Token *auth.TokenInfo
	// Header holds request headers (a tenant, a client version, ...). Do
	// not put Authorization here when Token is set.
	Header http.Header
}

func (id Identity) apply(c *config) { c.identity = &id }

// bearer is the token vurbtest's HTTP requests present for Identity.Token;
// only the Client's own stand-in verifier accepts it.
const bearer = "vurbtest-token"

func (id *Identity) check(t testing.TB) {
	t.Helper()
	if id.Token != nil && id.Header.Get("Authorization") != "" {
		t.Fatalf("vurbtest: Identity has both a Token and an Authorization header; the Token is sent as the bearer: drop one")
	}
}

// middleware gives every request the server receives in memory the Extra
// an HTTP request would carry.
func (id *Identity) middleware() mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			setExtra(req, &mcp.RequestExtra{TokenInfo: id.Token, Header: id.Header.Clone()})
			return next(ctx, method, req)
		}
	}
}

// setExtra sets the Extra field of req, an *mcp.ServerRequest[P] for some
// params P, when the transport left it nil. A generic request type has one
// Go type per P; reflection reaches them all, in test code only.
func setExtra(req mcp.Request, extra *mcp.RequestExtra) {
	v := reflect.ValueOf(req)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return
	}
	f := v.Elem().FieldByName("Extra")
	if f.IsValid() && f.CanSet() && f.Type() == reflect.TypeFor[*mcp.RequestExtra]() && f.IsNil() {
		f.Set(reflect.ValueOf(extra))
	}
}

// requireToken wraps h in the go-sdk's bearer-token middleware with a
// verifier that knows one token: the Identity's.
func (id *Identity) requireToken(h http.Handler) http.Handler {
	if id.Token == nil {
		return h
	}
	verify := func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		if token != bearer {
			return nil, fmt.Errorf("%w: not the vurbtest Identity's token", auth.ErrInvalidToken)
		}
		return id.Token, nil
	}
	opts := &auth.RequireBearerTokenOptions{AllowMissingExpiration: id.Token.Expiration.IsZero()}
	return auth.RequireBearerToken(verify, opts)(h)
}

// transport returns a RoundTripper that adds the Identity's headers, and
// its bearer token, to every request.
func (id *Identity) transport(base http.RoundTripper) http.RoundTripper {
	h := id.Header.Clone()
	if h == nil {
		h = http.Header{}
	}
	if id.Token != nil {
		h.Set("Authorization", "Bearer "+bearer)
	}
	return &headerTransport{base: base, header: h}
}

// headerTransport sets header on every request it sends.
type headerTransport struct {
	base   http.RoundTripper
	header http.Header
}

func (t *headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context()) // a RoundTripper must not change its caller's request
	for k, vs := range t.header {
		r.Header.Del(k)
		for _, v := range vs {
			r.Header.Add(k, v)
		}
	}
	return t.base.RoundTrip(r)
}

// CloseIdleConnections lets http.Client.CloseIdleConnections reach base.
func (t *headerTransport) CloseIdleConnections() {
	if c, ok := t.base.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}
