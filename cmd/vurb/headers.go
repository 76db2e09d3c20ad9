package main

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/vurb-go/vurb/dpop"
	"github.com/vurb-go/vurb/internal/weborigin"
)

// httpClient is the client vurb speaks to a URL server with: the answers
// bounded by b and noted by ch (which must be new), and the -H headers
// added to the requests that go to the server the user named, and to no
// other. With dpopKey (-dpop-key), the token of -H "Authorization: DPoP
// <token>" goes with a proof signed by that key on each of those
// requests.
func httpClient(endpoint string, headers []string, dpopKey string, b *budget, ch *challenges) (*http.Client, error) {
	var next http.RoundTripper = http.DefaultTransport
	if len(headers) > 0 || dpopKey != "" {
		h := http.Header{}
		for _, kv := range headers {
			name, value, _ := strings.Cut(kv, ":")
			h.Add(strings.TrimSpace(name), strings.TrimSpace(value))
		}
		origin, _ := url.Parse(endpoint)
		t := headerTransport{h: h, origin: origin, next: next}
		if dpopKey != "" {
			d, err := dpopTransport(dpopKey, h, next)
			if err != nil {
				return nil, err
			}
			h.Del("Authorization") // the proofs' transport sends it
			t.dpop = d
		}
		next = t
	}
	ch.next = b.transport(next)
	return &http.Client{Transport: ch}, nil
}

// headerTransport adds the user's headers to requests for origin. The
// headers are often credentials (-H "Authorization: Bearer ..."), given
// for one server: net/http drops Authorization when a redirect leaves the
// host, and a transport that added the headers back on every hop handed
// the token to whatever host a server redirected vurb to.
type headerTransport struct {
	h      http.Header
	origin *url.URL
	next   http.RoundTripper
	dpop   *dpop.Transport // -dpop-key: sends the origin's requests with proofs
}

// RoundTrip sends r, with the headers when it goes to the origin.
func (t headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if !sameOrigin(r.URL, t.origin) {
		return t.next.RoundTrip(r)
	}
	r = r.Clone(r.Context())
	for k, vs := range t.h {
		r.Header[k] = vs
	}
	if t.dpop != nil {
		return t.dpop.RoundTrip(r)
	}
	return t.next.RoundTrip(r)
}

// sameOrigin reports whether a and b are one web origin: the same scheme,
// host and port (the scheme's default when absent). A redirect to another
// port, or from https to http, is another server as far as a credential
// is concerned.
func sameOrigin(a, b *url.URL) bool {
	return a != nil && b != nil && weborigin.Of(a) == weborigin.Of(b)
}
