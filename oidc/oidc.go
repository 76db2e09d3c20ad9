// Package oidc verifies JWT access tokens issued by an OpenID Connect
// provider, for vurb.BearerAuth: a vurb server that accepts tokens from
// Auth0, Okta, Keycloak, Entra ID, Google, Zitadel, Dex or any other
// issuer that publishes its keys needs only the issuer's URL and its own.
//
//	verify, err := oidc.NewVerifier(ctx, "https://auth.example.com/", "https://mcp.example.com/mcp")
//	...
//	app.ListenAndServe(ctx, ":8080", vurb.BearerAuth(verify, &oauthex.ProtectedResourceMetadata{
//		Resource:             "https://mcp.example.com/mcp",
//		AuthorizationServers: []string{"https://auth.example.com/"},
//	}, nil))
//
// It stands apart from vurb because it brings github.com/coreos/go-oidc
// (and go-jose) with it: a server that verifies its tokens another way
// (opaque tokens, introspection) never compiles them in. The signatures,
// the key set and its rotation are go-oidc's, not hand-written: the keys
// are fetched from the issuer's jwks_uri, found by OpenID Connect
// discovery, kept in memory, and fetched again when a token names a key
// id the cache does not hold, so the issuer can rotate its keys without
// the server noticing.
package oidc

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	gooidc "github.com/coreos/go-oidc/v3/oidc"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// An Option configures NewVerifier.
type Option func(*config)

type config struct {
	client  *http.Client
	jwksURL string
	algs    []string
}

// WithHTTPClient makes the verifier fetch the discovery document and the
// keys with client (default http.DefaultClient): for a proxy, a private
// CA, or timeouts of your own.
func WithHTTPClient(client *http.Client) Option {
	return func(c *config) { c.client = client }
}

// WithJWKSURL skips OpenID Connect discovery and fetches the keys from
// jwksURL: for an authorization server that publishes only RFC 8414
// metadata (/.well-known/oauth-authorization-server), or none. Without
// WithSigningAlgorithms, tokens must then be signed with RS256.
func WithJWKSURL(jwksURL string) Option {
	return func(c *config) { c.jwksURL = jwksURL }
}

// WithSigningAlgorithms lists the JWS algorithms (RS256, ES256, EdDSA,
// ...) a token may be signed with. By default they are those the issuer's
// discovery document lists for ID tokens; name them when the issuer signs
// its access tokens with another.
func WithSigningAlgorithms(algs ...string) Option {
	return func(c *config) { c.algs = algs }
}

// NewVerifier returns an auth.TokenVerifier for the JWT access tokens
// (RFC 9068) that issuer issues for resource, the MCP server's canonical
// URL (the RFC 8707 resource indicator its clients request tokens for,
// and vurb.BearerAuth's metadata.Resource). It fetches the issuer's
// discovery document once, now, and fails if the issuer cannot be reached
// or names itself otherwise; keys are fetched when first needed. ctx
// bounds discovery; its cancellation does not stop later key fetches.
//
// A token is accepted when its signature verifies with one of the
// issuer's current keys, its "iss" is issuer, its "aud" names resource
// (a trailing slash aside), it has not expired and it names a subject.
// The TokenInfo it yields holds the subject ("sub") as UserID, the scopes
// ("scope", space-separated, and "scp", a list or a space-separated
// string, as Okta and Entra ID write them), the expiry, and every claim in
// Extra. Every refusal wraps auth.ErrInvalidToken, so the client gets 401
// and a challenge to fetch a new token.
func NewVerifier(ctx context.Context, issuer, resource string, opts ...Option) (auth.TokenVerifier, error) {
	var cfg config
	for _, o := range opts {
		o(&cfg)
	}
	if resource == "" {
		return nil, errors.New("oidc: NewVerifier needs the resource (the MCP server's URL) that tokens must be issued for")
	}
	if cfg.client != nil {
		ctx = gooidc.ClientContext(ctx, cfg.client)
	}
	// go-oidc compares audiences byte for byte; vurb compares them as
	// BearerAuth does (oauthex.MatchesResource), so the check is below.
	vc := &gooidc.Config{SkipClientIDCheck: true, SupportedSigningAlgs: cfg.algs}
	var v *gooidc.IDTokenVerifier
	if cfg.jwksURL != "" {
		v = gooidc.NewVerifier(issuer, gooidc.NewRemoteKeySet(ctx, cfg.jwksURL), vc)
	} else {
		p, err := gooidc.NewProvider(ctx, issuer)
		if err != nil {
			return nil, fmt.Errorf("oidc: discovering %s: %w", issuer, err)
		}
		v = p.VerifierContext(ctx, vc)
	}
	return func(ctx context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		return verify(ctx, v, resource, token)
	}, nil
}

func verify(ctx context.Context, v *gooidc.IDTokenVerifier, resource, token string) (*auth.TokenInfo, error) {
	t, err := v.Verify(ctx, token)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", auth.ErrInvalidToken, err)
	}
	if !oauthex.MatchesResource(t.Audience, resource) {
		return nil, fmt.Errorf("%w: the token is for %s, not for %s", auth.ErrInvalidToken, strings.Join(t.Audience, ", "), resource)
	}
	if t.Subject == "" {
		return nil, fmt.Errorf("%w: the token names no subject (sub)", auth.ErrInvalidToken)
	}
	var claims map[string]any
	if err := t.Claims(&claims); err != nil {
		return nil, fmt.Errorf("%w: %v", auth.ErrInvalidToken, err)
	}
	return &auth.TokenInfo{
		UserID:     t.Subject,
		Scopes:     scopes(claims),
		Expiration: t.Expiry,
		Extra:      claims,
	}, nil
}
