package dpop

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/vurb-go/vurb/internal/weborigin"
	"golang.org/x/oauth2"
)

// Transport is an http.RoundTripper that sends each request with a
// DPoP-bound access token and a fresh proof signed by Signer: give it to
// an MCP client's HTTP client (mcp.StreamableClientTransport's
// HTTPClient). It keeps the server's latest DPoP-Nonce and, when the
// server refuses a proof alone (use_dpop_nonce, or invalid_dpop_proof
// for a proof a balancer's retry spent), sends the request once more
// with a new proof and the nonce it was given. A request whose body
// cannot be read again (no GetBody) is not sent again. The token goes
// to the origin (scheme, host and port) of the first request alone: a
// redirect elsewhere is followed without it. Use one Transport per
// server.
type Transport struct {
	// Signer signs the proofs: the key the tokens are bound to.
	Signer *Signer
	// Source gives the access tokens, bound to Signer's key.
	Source oauth2.TokenSource
	// Base sends the requests; nil means http.DefaultTransport.
	Base http.RoundTripper

	mu     sync.Mutex
	nonce  string
	origin string // scheme://host:port of the first request: the one server the token goes to
}

// RoundTrip sends req with the DPoP scheme and a proof.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if t.Signer == nil || t.Source == nil {
		return nil, fmt.Errorf("dpop: Transport needs a Signer and a Source")
	}
	if !t.forOrigin(req.URL) {
		return t.base().RoundTrip(req) // a redirect elsewhere: neither token nor proof
	}
	tok, err := t.Source.Token()
	if err != nil {
		return nil, fmt.Errorf("dpop: the access token: %w", err)
	}
	resp, err := t.send(req, tok.AccessToken, t.latest())
	if err != nil || !refusedProof(resp) || (req.Body != nil && req.GetBody == nil) {
		return resp, err // served, refused for another reason, or no body to send again
	}
	resp.Body.Close()
	if req.GetBody != nil {
		body, err := req.GetBody()
		if err != nil {
			return nil, err
		}
		req = req.Clone(req.Context())
		req.Body = body
	}
	return t.send(req, tok.AccessToken, t.latest())
}

// refusedProof reports whether resp refuses the request's proof alone,
// as RFC 9449 lets a client answer with a new one: for want of the
// server's nonce (use_dpop_nonce, the nonce in DPoP-Nonce), or as a proof
// already spent (invalid_dpop_proof), as when a balancer sends a request
// that a replica refused or never answered to another. A refused request
// ran nothing, so sending it once more with a new proof is safe.
func refusedProof(resp *http.Response) bool {
	if resp.StatusCode != http.StatusUnauthorized {
		return false
	}
	for _, c := range resp.Header.Values("WWW-Authenticate") {
		if strings.Contains(c, `error="use_dpop_nonce"`) || strings.Contains(c, `error="invalid_dpop_proof"`) {
			return true
		}
	}
	return false
}

func (t *Transport) send(req *http.Request, token, nonce string) (*http.Response, error) {
	proof, err := t.Signer.Proof(req.Method, req.URL.String(), token, nonce)
	if err != nil {
		return nil, err
	}
	r := req.Clone(req.Context())
	r.Header.Set("Authorization", "DPoP "+token)
	r.Header.Set("DPoP", proof)
	resp, err := t.base().RoundTrip(r)
	if err == nil {
		if n := resp.Header.Get("DPoP-Nonce"); n != "" {
			t.mu.Lock()
			t.nonce = n
			t.mu.Unlock()
		}
	}
	return resp, err
}

func (t *Transport) base() http.RoundTripper {
	if t.Base == nil {
		return http.DefaultTransport
	}
	return t.Base
}

// forOrigin reports whether u is on the origin of the first request the
// Transport sent, which it takes as its server's: the token and proofs go
// there alone, as net/http drops Authorization on a redirect elsewhere.
func (t *Transport) forOrigin(u *url.URL) bool {
	origin := weborigin.Of(u)
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.origin == "" {
		t.origin = origin
	}
	return t.origin == origin
}

func (t *Transport) latest() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.nonce
}
