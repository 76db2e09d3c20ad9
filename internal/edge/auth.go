package edge

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	proofs "github.com/vurb-go/vurb/internal/dpop"
	"github.com/vurb-go/vurb/internal/engine"
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
	params        string     // every challenge's parameters: the metadata, the scopes every request needs
	dpop          *dpopGuard // WithDPoP
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
		require:       auth.RequireBearerToken(withProofs(forResource(verifier, doc.Resource)), &ropts),
		params:        challengeParams(ropts.ResourceMetadataURL, ropts.Scopes),
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

// protect puts the token check in front of next. A refused request's
// answer is written through a challengeWriter, which writes the
// challenges (RFC 6750's, and RFC 9449's under WithDPoP) with the error
// code that applies and replaces the go-sdk's body, the verifier's error
// text, with one that says only what the RFCs let an unauthenticated
// client know; the verifier's text (which may name the issuer, the key set
// or the server's clock) goes to logger, at debug level. An accepted
// request reaches next with the ResponseWriter it came with, so streams
// flush as they would unprotected.
//
// Under WithDPoP, a request with the DPoP scheme has its proof checked
// here, before its token; it then passes the go-sdk's check as a bearer
// request would, with the verified proof in its context for the verifier
// (withProofs), which compares the key bindings and spends the jti.
func (rs *resourceServer) protect(next http.Handler, logger *slog.Logger) http.Handler {
	checked := rs.require(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if cw, ok := w.(*challengeWriter); ok {
			w = cw.ResponseWriter
			if cw.at.proof != nil { // what the client sent, for the handlers that read the headers
				r.Header.Set("Authorization", cw.authorization)
			}
		}
		next.ServeHTTP(w, r)
	}))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		cw := &challengeWriter{ResponseWriter: w, rs: rs, at: attempt{guard: rs.dpop}, authorization: r.Header.Get("Authorization")}
		at := &cw.at // one allocation with the writer's
		if g := rs.dpop; g != nil {
			var token string
			at.scheme, token = credentials(cw.authorization)
			switch {
			case at.scheme == "dpop":
				if g.policy.Nonces {
					w.Header().Set("DPoP-Nonce", g.nonce()) // on every answer, so a client keeps up
				}
				p, fault := g.check(r, rs.resource, token)
				if fault != nil {
					at.fault = fault
					cw.WriteHeader(http.StatusUnauthorized)
					logger.Debug("vurb: DPoP proof refused", "reason", fault.Reason, "remote", r.RemoteAddr)
					return
				}
				at.proof = &p
				r = r.Clone(context.WithValue(r.Context(), attemptKey{}, at))
				r.Header.Set("Authorization", "Bearer "+token) // the go-sdk's check reads this scheme; restored past it
			case at.scheme != "" && g.policy.Required: // Bearer, or any other scheme: the go-sdk's check must not see it
				at.fault = &proofs.Error{Code: "invalid_token", Reason: "a " + at.scheme + " credential, and this server takes DPoP-bound tokens only"}
				cw.WriteHeader(http.StatusUnauthorized)
				logger.Debug("vurb: bearer token refused", "reason", at.fault.Reason, "remote", r.RemoteAddr)
				return
			default:
				r = r.WithContext(context.WithValue(r.Context(), attemptKey{}, at))
			}
		}
		checked.ServeHTTP(cw, r)
		if cw.refused {
			reason := strings.TrimSpace(string(cw.reason))
			if at.fault != nil {
				reason = at.fault.Reason
			}
			if reason != "" {
				logger.Debug("vurb: access token refused", "reason", reason, "remote", r.RemoteAddr)
			}
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

// challengeWriter writes the answer to a refused request: the challenges
// with the error code that applies (invalid_token when a token was
// presented and refused, insufficient_scope when it lacks a scope, the
// only 403 the go-sdk's check answers, and RFC 9449's codes for a proof),
// and a body that tells no internals.
type challengeWriter struct {
	http.ResponseWriter
	rs *resourceServer
	at attempt
	// authorization is the request's Authorization header; without
	// WithDPoP its scheme is read on a refusal alone.
	authorization string
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

func (c *challengeWriter) WriteHeader(code int) {
	if code != http.StatusUnauthorized && code != http.StatusForbidden {
		c.ResponseWriter.WriteHeader(code)
		return
	}
	c.refused = true
	if c.at.guard == nil {
		c.at.scheme, _ = credentials(c.authorization)
	}
	h := c.Header()
	h.Del("Content-Length")
	h.Set("Content-Type", "text/plain; charset=utf-8")
	switch {
	case c.at.unchecked:
		// Not the client's fault: the store that spends jtis is down.
		h.Del("WWW-Authenticate")
		h.Set("Retry-After", "1")
		c.ResponseWriter.WriteHeader(http.StatusServiceUnavailable)
		io.WriteString(c.ResponseWriter, "Service Unavailable: the DPoP proof could not be checked for replay; retry shortly with a new proof\n")
		return
	case c.at.busy:
		h.Del("WWW-Authenticate")
		h.Set("Retry-After", strconv.Itoa(max(1, int(c.at.guard.policy.Window/time.Second))))
		c.ResponseWriter.WriteHeader(http.StatusTooManyRequests)
		io.WriteString(c.ResponseWriter, "Too Many Requests: this caller sent more DPoP proofs within the proof window than the server keeps for one caller; retry later with a new proof\n")
		return
	}
	h.Del("WWW-Authenticate")
	for _, ch := range c.rs.challenges(code, &c.at) {
		h.Add("WWW-Authenticate", ch)
	}
	if g := c.at.guard; g != nil && g.policy.Nonces {
		h.Set("DPoP-Nonce", g.nonce())
	}
	c.ResponseWriter.WriteHeader(code)
	io.WriteString(c.ResponseWriter, refusalText(code, &c.at))
}

// challenges are the WWW-Authenticate values of a refusal with code: a
// Bearer challenge unless DPoP is required, a DPoP one under WithDPoP,
// each naming the resource metadata and the scopes the check asks for,
// and the error code on the challenge of the scheme the request used.
func (rs *resourceServer) challenges(code int, at *attempt) []string {
	var e string
	switch {
	case code == http.StatusForbidden:
		e = "insufficient_scope"
	case at.fault != nil:
		e = at.fault.Code
	case at.scheme == "bearer" || at.scheme == "dpop":
		e = "invalid_token"
	}
	var out []string
	g := at.guard
	if g == nil || !g.policy.Required {
		out = append(out, challenge("Bearer", errorFor(e, at.scheme == "bearer"), rs.params))
	}
	if g != nil {
		onDPoP := at.scheme == "dpop" || at.scheme != "" && g.policy.Required
		out = append(out, g.challenge(errorFor(e, onDPoP), rs.params))
	}
	return out
}

// challengeParams are the parameters every challenge names, made once:
// where the resource metadata is, and the scopes every request needs.
func challengeParams(metadataURL string, scopes []string) string {
	params := `resource_metadata="` + metadataURL + `"`
	if len(scopes) > 0 {
		params += `, scope="` + strings.Join(scopes, " ") + `"`
	}
	return params
}

func errorFor(code string, applies bool) string {
	if !applies || code == "" {
		return ""
	}
	return `error="` + code + `"`
}

// challenge is one WWW-Authenticate value: the scheme and its parameters,
// the error first.
func challenge(scheme string, params ...string) string {
	params = slices.DeleteFunc(params, func(p string) bool { return p == "" })
	return scheme + " " + strings.Join(params, ", ")
}

// refusalText is the body of a refusal: the RFC's error code and what
// the client may do, nothing of why the verifier refused.
func refusalText(code int, at *attempt) string {
	if code == http.StatusForbidden {
		return "Forbidden: insufficient_scope: the token lacks a scope this request needs (see the scope parameter of WWW-Authenticate)\n"
	}
	if at.fault != nil {
		switch {
		case at.fault.Code == "use_dpop_nonce":
			return "Unauthorized: use_dpop_nonce: sign the DPoP proof again with the nonce in the DPoP-Nonce header\n"
		case at.fault.Code == "invalid_dpop_proof":
			return "Unauthorized: invalid_dpop_proof: the DPoP proof is not valid for this request (one proof, signed with an accepted algorithm by the key the token is bound to, naming this request's method and this resource's URL, fresh, used once); sign a new one\n"
		case at.scheme != "dpop" && at.guard.policy.Required:
			return "Unauthorized: invalid_token: this server takes DPoP-bound tokens only: send the token with the DPoP scheme and a proof\n"
		case at.scheme == "bearer":
			return "Unauthorized: invalid_token: the token is DPoP-bound: send it with the DPoP scheme and a proof\n"
		default:
			return "Unauthorized: invalid_token: the token is not bound to the DPoP proof's key\n"
		}
	}
	if at.scheme == "dpop" && at.guard == nil {
		return "Unauthorized: this server takes bearer tokens: send the token as Authorization: Bearer\n"
	}
	if at.scheme == "bearer" || at.scheme == "dpop" {
		return "Unauthorized: invalid_token: the access token is not valid here (expired, revoked, malformed, or issued for another resource); obtain a new one\n"
	}
	return "Unauthorized: this server needs an access token (see WWW-Authenticate for where to obtain one)\n"
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

// withDPoP is rs taking DPoP proofs as d says, with the nonces' key and
// the replay store of sealer; its metadata says so (RFC 9449 §5.1).
func (rs *resourceServer) withDPoP(d *dpopConfig, sealer *engine.Sealer) *resourceServer {
	if d == nil {
		return rs
	}
	p := d.policy
	c := *rs
	c.dpop = newDPoPGuard(d, sealer)
	c.doc.DPOPSigningAlgValuesSupported = p.Algs
	c.doc.DPOPBoundAccessTokensRequired = p.Required
	c.metadata = auth.ProtectedResourceMetadataHandler(&c.doc)
	return &c
}
