package main

import (
	"net"
	"net/http"
	"net/url"
	"strings"
)

// httpClient is the client vurb speaks to a URL server with: the answers
// bounded by b and noted by ch (which must be new), and the -H headers
// added to the requests that go to the server the user named, and to no
// other.
func httpClient(endpoint string, headers []string, b *budget, ch *challenges) *http.Client {
	var next http.RoundTripper = http.DefaultTransport
	if len(headers) > 0 {
		h := http.Header{}
		for _, kv := range headers {
			name, value, _ := strings.Cut(kv, ":")
			h.Add(strings.TrimSpace(name), strings.TrimSpace(value))
		}
		origin, _ := url.Parse(endpoint)
		next = headerTransport{h: h, origin: origin, next: next}
	}
	ch.next = b.transport(next)
	return &http.Client{Transport: ch}
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
	return t.next.RoundTrip(r)
}

// sameOrigin reports whether a and b are one web origin: the same scheme,
// host and port (the scheme's default when absent). A redirect to another
// port, or from https to http, is another server as far as a credential
// is concerned.
func sameOrigin(a, b *url.URL) bool {
	if a == nil || b == nil || !strings.EqualFold(a.Scheme, b.Scheme) {
		return false
	}
	return hostPort(a) == hostPort(b)
}

func hostPort(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[strings.ToLower(u.Scheme)]
	}
	return net.JoinHostPort(strings.ToLower(u.Hostname()), port)
}
