// Package oidc verifies JWT access tokens issued by an OpenID Connect
// provider, for vurb.WithBearerAuth: a vurb server that accepts tokens from
// Auth0, Okta, Keycloak, Entra ID, Google, Zitadel, Dex or any other
// issuer that publishes its keys needs only the issuer's URL and its own.
//
//	verify, err := oidc.NewVerifier(ctx, "https://auth.example.com/", "https://mcp.example.com/mcp")
//	...
//	app.ListenAndServe(ctx, ":8080", vurb.WithBearerAuth(verify, &oauthex.ProtectedResourceMetadata{
//		Resource:             "https://mcp.example.com/mcp",
//		AuthorizationServers: []string{"https://auth.example.com/"},
//	}, nil))
//
// It stands apart from vurb because it brings github.com/coreos/go-oidc
// (and go-jose) with it: a server that verifies its tokens another way
// (opaque tokens, introspection) never compiles them in. The token checks
// are go-oidc's and the signatures go-jose's, not hand-written. The keys
// are fetched from the issuer's jwks_uri, found by OpenID Connect
// discovery, kept in memory, and fetched again when a token verifies with
// none of them (it names a key id the cache does not hold: the issuer
// rotated its keys), so the issuer can rotate its keys without the server
// noticing. Since a forged token looks the same until the keys are
// fetched, they are fetched again at most once per interval
// (DefaultKeyRefetchInterval, WithKeyRefetchInterval): go-oidc's own key
// set fetches on every failed signature, so anyone could make the server
// fetch its issuer's keys at will.
package oidc

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	gooidc "github.com/coreos/go-oidc/v3/oidc"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// An Option configures NewVerifier.
type Option func(*config)

type config struct {
	client   *http.Client
	jwksURL  string
	algs     []string
	interval time.Duration
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

// WithKeyRefetchInterval sets how often, at most, the verifier fetches
// the issuer's keys again when a token verifies with none of those it
// holds (default DefaultKeyRefetchInterval); d must be positive. Every
// token refused meanwhile costs no fetch, forged or not: a token signed
// with a key the issuer started using unannounced is refused until d has
// passed since the last fetch, then accepted. Shorten it for an issuer
// that signs with new keys before publishing them; lengthen it to spare
// an issuer that limits its own clients.
func WithKeyRefetchInterval(d time.Duration) Option {
	return func(c *config) { c.interval = d }
}

// NewVerifier returns an auth.TokenVerifier for the JWT access tokens
// (RFC 9068) that issuer issues for resource, the MCP server's canonical
// URL (the RFC 8707 resource indicator its clients request tokens for,
// and vurb.WithBearerAuth's metadata.Resource). It fetches the issuer's
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
// Extra, the confirmation ("cnf") of a DPoP-bound token among them, which
// vurb.WithDPoP compares with each proof's key. Every refusal wraps auth.ErrInvalidToken, so the client gets 401
// and a challenge to fetch a new token.
func NewVerifier(ctx context.Context, issuer, resource string, opts ...Option) (auth.TokenVerifier, error) {
	cfg := config{client: http.DefaultClient, interval: DefaultKeyRefetchInterval}
	for _, o := range opts {
		o(&cfg)
	}
	if resource == "" {
		return nil, errors.New("oidc: NewVerifier needs the resource (the MCP server's URL) that tokens must be issued for")
	}
	if cfg.interval <= 0 {
		return nil, fmt.Errorf("oidc: WithKeyRefetchInterval(%v): the interval must be positive (default %v)", cfg.interval, DefaultKeyRefetchInterval)
	}
	if cfg.jwksURL == "" {
		if err := discover(ctx, issuer, &cfg); err != nil {
			return nil, err
		}
	}
	// go-oidc compares audiences byte for byte; vurb compares them as
	// WithBearerAuth does (oauthex.MatchesResource), so the check is below.
	vc := &gooidc.Config{SkipClientIDCheck: true, SupportedSigningAlgs: cfg.algs}
	v := gooidc.NewVerifier(issuer, newKeySet(cfg.jwksURL, cfg.client, cfg.interval), vc)
	return func(ctx context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		return verify(ctx, v, resource, token)
	}, nil
}

// discover reads the issuer's discovery document with go-oidc, which
// checks that it names issuer, and completes cfg with its jwks_uri and,
// unless WithSigningAlgorithms named them, the algorithms it signs ID
// tokens with (those go-oidc supports), as go-oidc's own verifier would.
func discover(ctx context.Context, issuer string, cfg *config) error {
	p, err := gooidc.NewProvider(gooidc.ClientContext(ctx, cfg.client), issuer)
	if err != nil {
		return fmt.Errorf("oidc: discovering %s: %w", issuer, err)
	}
	var doc struct {
		JWKSURL string   `json:"jwks_uri"`
		Algs    []string `json:"id_token_signing_alg_values_supported"`
	}
	if err := p.Claims(&doc); err != nil {
		return fmt.Errorf("oidc: discovering %s: %w", issuer, err)
	}
	if doc.JWKSURL == "" {
		return fmt.Errorf("oidc: discovering %s: the discovery document names no jwks_uri; name the key set with WithJWKSURL", issuer)
	}
	cfg.jwksURL = doc.JWKSURL
	if len(cfg.algs) == 0 {
		for _, alg := range doc.Algs {
			if supportedAlgorithm(alg) {
				cfg.algs = append(cfg.algs, alg)
			}
		}
	}
	return nil
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
