package edge

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"reflect"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// BearerAuth is vurb.WithBearerAuth; see its documentation there.
func BearerAuth(verifier auth.TokenVerifier, metadata *oauthex.ProtectedResourceMetadata, opts *auth.RequireBearerTokenOptions) ServeOption {
	rs := newResourceServer(verifier, metadata, opts)
	return func(c *serveConfig) { c.httpSetting("WithBearerAuth"); c.bearer = rs }
}

// wellKnownResourceMetadata is RFC 9728's well-known path segment.
const wellKnownResourceMetadata = "/.well-known/oauth-protected-resource"

// resourceServer is what WithBearerAuth sets up, once.
type resourceServer struct {
	doc           oauthex.ProtectedResourceMetadata
	resource      string
	metadataURL   string       // where challenges say the document is
	metadata      http.Handler // the go-sdk's RFC 9728 handler
	metadataPaths []string     // where it is served: the resource's own, then the bare one
	require       func(http.Handler) http.Handler
}

func newResourceServer(verifier auth.TokenVerifier, metadata *oauthex.ProtectedResourceMetadata, opts *auth.RequireBearerTokenOptions) *resourceServer {
	if verifier == nil {
		panic("vurb: WithBearerAuth needs a token verifier (the oidc package makes one for an OpenID Connect issuer)")
	}
	if metadata == nil || metadata.Resource == "" {
		panic("vurb: WithBearerAuth needs metadata.Resource, the server's canonical URL (https://mcp.example.com/mcp): tokens are checked to be issued for it")
	}
	u, err := url.Parse(metadata.Resource)
	if err != nil || u.Scheme == "" || u.Host == "" || u.Fragment != "" {
		panic(fmt.Sprintf("vurb: WithBearerAuth: metadata.Resource %q must be an absolute URL without a fragment (RFC 8707), such as https://mcp.example.com/mcp", metadata.Resource))
	}
	doc := *metadata // later changes to the caller's value do not reach the served document
	var ropts auth.RequireBearerTokenOptions
	if opts != nil {
		ropts = *opts
	}
	suffix := strings.TrimSuffix(u.EscapedPath(), "/")
	if ropts.ResourceMetadataURL == "" {
		ropts.ResourceMetadataURL = u.Scheme + "://" + u.Host + wellKnownResourceMetadata + suffix
	}
	paths := []string{wellKnownResourceMetadata}
	if suffix != "" {
		paths = []string{wellKnownResourceMetadata + suffix, wellKnownResourceMetadata}
	}
	return &resourceServer{
		doc:           doc,
		resource:      doc.Resource,
		metadataURL:   ropts.ResourceMetadataURL,
		metadata:      auth.ProtectedResourceMetadataHandler(&doc),
		metadataPaths: paths,
		require:       auth.RequireBearerToken(forResource(verifier, doc.Resource), &ropts),
	}
}

// forResource wraps verify with the audience check WithBearerAuth promises.
func forResource(verify auth.TokenVerifier, resource string) auth.TokenVerifier {
	return func(ctx context.Context, token string, r *http.Request) (*auth.TokenInfo, error) {
		info, err := verify(ctx, token, r)
		if err != nil || info == nil {
			return info, err
		}
		claim, present := info.Extra["aud"]
		if !present || claim == nil {
			return info, nil
		}
		aud, ok := audiences(claim)
		if !ok {
			// Fail closed: an audience vurb cannot read is not this server.
			return nil, fmt.Errorf("%w: the token's audience (%T) cannot be read as strings", auth.ErrInvalidToken, claim)
		}
		if !oauthex.MatchesResource(aud, resource) {
			return nil, fmt.Errorf("%w: the token is for %s, not for %s", auth.ErrInvalidToken, strings.Join(aud, ", "), resource)
		}
		return info, nil
	}
}

// audiences reads an "aud" claim: one string or a list of them (JWT,
// RFC 7519 §4.1.3; token introspection, RFC 7662 §2.2), whatever the Go
// types a verifier used (go-jose's jwt.Audience, golang-jwt's
// ClaimStrings, []any from JSON). ok is false when it is anything else,
// or a list holding anything but strings.
func audiences(claim any) (aud []string, ok bool) {
	v := reflect.ValueOf(claim)
	switch {
	case !v.IsValid():
		return nil, false
	case v.Kind() == reflect.String:
		return []string{v.String()}, true
	case v.Kind() == reflect.Slice || v.Kind() == reflect.Array:
		for i := range v.Len() {
			e := v.Index(i)
			for e.Kind() == reflect.Interface && !e.IsNil() {
				e = e.Elem()
			}
			if e.Kind() != reflect.String {
				return nil, false
			}
			aud = append(aud, e.String())
		}
		return aud, true
	}
	return nil, false
}

// protect puts the bearer check in front of next. A refused request's
// answer is written through a challengeWriter, which adds RFC 6750's error
// code to the go-sdk's challenge and replaces its body, the verifier's
// error text, with one that says only what RFC 6750 lets an unauthenticated
// client know; the verifier's text (which may name the issuer, the key set
// or the server's clock) goes to logger, at debug level. An accepted
// request reaches next with the ResponseWriter it came with, so streams
// flush as they would unprotected.
func (rs *resourceServer) protect(next http.Handler, logger *slog.Logger) http.Handler {
	checked := rs.require(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if cw, ok := w.(*challengeWriter); ok {
			w = cw.ResponseWriter
		}
		next.ServeHTTP(w, r)
	}))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		cw := &challengeWriter{ResponseWriter: w, bearer: presentsBearer(r)}
		checked.ServeHTTP(cw, r)
		if cw.refused && len(cw.reason) > 0 {
			logger.Debug("vurb: bearer token refused", "reason", strings.TrimSpace(string(cw.reason)), "remote", r.RemoteAddr)
		}
	})
}

// withMetadata answers the RFC 9728 paths with the document, to anyone,
// and hands every other request to next.
func (rs *resourceServer) withMetadata(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for _, p := range rs.metadataPaths {
			if r.URL.Path == p {
				rs.metadata.ServeHTTP(w, r)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// presentsBearer reports whether r carries a bearer token, valid or not.
func presentsBearer(r *http.Request) bool {
	scheme, _, _ := strings.Cut(strings.TrimSpace(r.Header.Get("Authorization")), " ")
	return strings.EqualFold(scheme, "bearer")
}

// challengeWriter adds the RFC 6750 error code to the challenge the
// go-sdk's auth.RequireBearerToken writes (it names the metadata and the
// scopes, not what went wrong): invalid_token when a bearer token was
// presented and refused (401), insufficient_scope when it lacks a scope
// (403, the only 403 the go-sdk's check answers).
type challengeWriter struct {
	http.ResponseWriter
	bearer bool // the request presented a bearer token
	// refused is set when the check refused the request: what it writes
	// then (the verifier's error text) is kept in reason, at most
	// maxRefusalReason bytes, for the log, instead of sent.
	refused bool
	reason  []byte
}

// maxRefusalReason bounds the verifier's error text kept for the log.
const maxRefusalReason = 512

// Write sends p, or keeps it for the log when it explains a refusal.
func (c *challengeWriter) Write(p []byte) (int, error) {
	if !c.refused {
		return c.ResponseWriter.Write(p)
	}
	c.reason = append(c.reason, p[:min(len(p), maxRefusalReason-len(c.reason))]...)
	return len(p), nil
}

// refusalText is the body of a refusal: RFC 6750's error code and what
// the client may do, nothing of why the verifier refused.
func refusalText(code int, bearer bool) string {
	switch {
	case code == http.StatusForbidden:
		return "Forbidden: insufficient_scope: the token lacks a scope this request needs (see the scope parameter of WWW-Authenticate)\n"
	case bearer:
		return "Unauthorized: invalid_token: the bearer token is not valid here (expired, revoked, malformed, or issued for another resource); obtain a new one\n"
	default:
		return "Unauthorized: this server needs a bearer token (see WWW-Authenticate for where to obtain one)\n"
	}
}

func (c *challengeWriter) WriteHeader(code int) {
	h := c.Header()
	if params, ok := strings.CutPrefix(h.Get("WWW-Authenticate"), "Bearer"); ok {
		var e string
		switch {
		case code == http.StatusForbidden:
			e = "insufficient_scope"
		case code == http.StatusUnauthorized && c.bearer:
			e = "invalid_token"
		}
		if e != "" {
			if params = strings.TrimSpace(params); params != "" {
				params = ", " + params
			}
			h.Set("WWW-Authenticate", `Bearer error="`+e+`"`+params)
		}
	}
	if code == http.StatusUnauthorized || code == http.StatusForbidden {
		c.refused = true
		h.Del("Content-Length")
		h.Set("Content-Type", "text/plain; charset=utf-8")
		c.ResponseWriter.WriteHeader(code)
		io.WriteString(c.ResponseWriter, refusalText(code, c.bearer))
		return
	}
	c.ResponseWriter.WriteHeader(code)
}

// forApp is rs for an app whose actions require scopes: when the metadata
// lists no scopes_supported, the document lists the app's, so a client
// learns what it may ask the authorization server for.
func (rs *resourceServer) forApp(scopes []string) *resourceServer {
	if len(rs.doc.ScopesSupported) > 0 || len(scopes) == 0 {
		return rs
	}
	c := *rs
	c.doc.ScopesSupported = scopes
	c.metadata = auth.ProtectedResourceMetadataHandler(&c.doc)
	return &c
}
