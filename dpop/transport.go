package dpop

import (
	"fmt"
	"net/http"
	"strings"
	"sync"

	"golang.org/x/oauth2"
)

// Transport is an http.RoundTripper that sends each request with a
// DPoP-bound access token and a fresh proof signed by Signer: give it to
// an MCP client's HTTP client (mcp.StreamableClientTransport's
// HTTPClient). It keeps the server's latest DPoP-Nonce and, when the
// server refuses a proof with use_dpop_nonce, sends the request once
// more with the nonce it was given.
type Transport struct {
	// Signer signs the proofs: the key the tokens are bound to.
	Signer *Signer
	// Source gives the access tokens, bound to Signer's key.
	Source oauth2.TokenSource
	// Base sends the requests; nil means http.DefaultTransport.
	Base http.RoundTripper

	mu    sync.Mutex
	nonce string
}

// RoundTrip sends req with the DPoP scheme and a proof.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if t.Signer == nil || t.Source == nil {
		return nil, fmt.Errorf("dpop: Transport needs a Signer and a Source")
	}
	tok, err := t.Source.Token()
	if err != nil {
		return nil, fmt.Errorf("dpop: the access token: %w", err)
	}
	resp, err := t.send(req, tok.AccessToken, t.latest())
	if err != nil || resp.StatusCode != http.StatusUnauthorized || !strings.Contains(resp.Header.Get("WWW-Authenticate"), "use_dpop_nonce") {
		return resp, err
	}
	nonce := resp.Header.Get("DPoP-Nonce")
	if nonce == "" || (req.Body != nil && req.GetBody == nil) {
		return resp, nil // nothing to try again with, or no body to send again
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
	return t.send(req, tok.AccessToken, nonce)
}

func (t *Transport) send(req *http.Request, token, nonce string) (*http.Response, error) {
	proof, err := t.Signer.Proof(req.Method, req.URL.String(), token, nonce)
	if err != nil {
		return nil, err
	}
	r := req.Clone(req.Context())
	r.Header.Set("Authorization", "DPoP "+token)
	r.Header.Set("DPoP", proof)
	base := t.Base
	if base == nil {
		base = http.DefaultTransport
	}
	resp, err := base.RoundTrip(r)
	if err == nil {
		if n := resp.Header.Get("DPoP-Nonce"); n != "" {
			t.mu.Lock()
			t.nonce = n
			t.mu.Unlock()
		}
	}
	return resp, err
}

func (t *Transport) latest() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.nonce
}
