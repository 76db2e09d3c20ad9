package guard

import (
	"net/http"
	"net/netip"
	"testing"
)

func TestForwardedClientTrustsOnlyListedProxies(t *testing.T) {
	trusted := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("127.0.0.1/32")}
	for _, c := range []struct {
		name, peer string
		header     http.Header
		want       string // "" for no change
	}{
		{"a listed proxy names the client", "10.0.0.5:4000", http.Header{"X-Forwarded-For": {"203.0.113.7"}}, "203.0.113.7"},
		{"the nearest untrusted hop, from the right", "10.0.0.5:4000", http.Header{"X-Forwarded-For": {"198.51.100.1, 203.0.113.7, 10.1.2.3"}}, "203.0.113.7"},
		{"headers split over lines", "10.0.0.5:4000", http.Header{"X-Forwarded-For": {"198.51.100.1", "203.0.113.7"}}, "203.0.113.7"},
		{"a peer not listed is itself", "192.0.2.9:4000", http.Header{"X-Forwarded-For": {"203.0.113.7"}}, ""},
		{"no header", "10.0.0.5:4000", http.Header{}, ""},
		{"a hop that is no address", "10.0.0.5:4000", http.Header{"X-Forwarded-For": {"alice"}}, ""},
		{"Forwarded, IPv6 with a port", "127.0.0.1:4000", http.Header{"Forwarded": {`for="[2001:db8::1]:4711";proto=https`}}, "2001:db8::1"},
		{"Forwarded, several", "127.0.0.1:4000", http.Header{"Forwarded": {"for=198.51.100.1, for=203.0.113.7"}}, "203.0.113.7"},
		{"every hop a proxy: the first", "10.0.0.5:4000", http.Header{"X-Forwarded-For": {"10.0.0.1, 10.0.0.2"}}, "10.0.0.1"},
	} {
		got, ok := forwardedClient(c.peer, c.header, trusted)
		if (c.want == "") == ok || ok && got.String() != c.want {
			t.Errorf("%s: %v %v, want %q", c.name, got, ok, c.want)
		}
	}
}
