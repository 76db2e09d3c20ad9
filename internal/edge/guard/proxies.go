package guard

import (
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// Behind a reverse proxy every request comes from the proxy's address,
// so every anonymous caller would be one caller to the quotas, which key
// on the client's host. The proxy names the client in X-Forwarded-For
// (or Forwarded, RFC 7239); a header is trusted only when the request
// comes from a proxy the operator listed, since anyone else can write
// it. The client is then the nearest address in the header that is not
// itself a listed proxy, read from the right: the addresses to its left
// were written by whom the proxies cannot vouch for.

// ParseProxy reads a proxy as WithTrustedProxies takes it: an address,
// or a network in CIDR form.
func ParseProxy(p string) (netip.Prefix, error) {
	if strings.Contains(p, "/") {
		prefix, err := netip.ParsePrefix(p)
		return prefix.Masked(), err
	}
	addr, err := netip.ParseAddr(p)
	if err != nil {
		return netip.Prefix{}, err
	}
	return netip.PrefixFrom(addr.Unmap(), addr.Unmap().BitLen()), nil
}

// ClientAddress sets r.RemoteAddr to the client a trusted proxy names,
// before any guard, quota or front reads it.
func ClientAddress(next http.Handler, trusted []netip.Prefix) http.Handler {
	if len(trusted) == 0 {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if client, ok := forwardedClient(r.RemoteAddr, r.Header, trusted); ok {
			r.RemoteAddr = net.JoinHostPort(client.String(), "0")
		}
		next.ServeHTTP(w, r)
	})
}

// forwardedClient returns the client a request from peer names in its
// forwarding headers, when peer is a trusted proxy and the headers name
// one; ok is false otherwise.
func forwardedClient(peer string, h http.Header, trusted []netip.Prefix) (netip.Addr, bool) {
	addr, ok := peerAddr(peer)
	if !ok || !isTrusted(addr, trusted) {
		return netip.Addr{}, false
	}
	hops := forwardedHops(h)
	if len(hops) == 0 {
		return netip.Addr{}, false
	}
	for i := len(hops) - 1; i >= 0; i-- {
		hop, ok := parseHop(hops[i])
		if !ok {
			return netip.Addr{}, false // a hop no proxy would write: trust nothing left of it
		}
		if !isTrusted(hop, trusted) || i == 0 {
			return hop, true
		}
	}
	return netip.Addr{}, false
}

// forwardedHops are the addresses of X-Forwarded-For, or else of
// Forwarded's for= parameters, in the order the proxies wrote them.
func forwardedHops(h http.Header) []string {
	var hops []string
	for _, v := range h.Values("X-Forwarded-For") {
		for hop := range strings.SplitSeq(v, ",") {
			hops = append(hops, strings.TrimSpace(hop))
		}
	}
	if len(hops) > 0 {
		return hops
	}
	for _, v := range h.Values("Forwarded") {
		for elem := range strings.SplitSeq(v, ",") {
			for pair := range strings.SplitSeq(elem, ";") {
				k, val, ok := strings.Cut(strings.TrimSpace(pair), "=")
				if ok && strings.EqualFold(k, "for") {
					hops = append(hops, strings.Trim(val, `"`))
				}
			}
		}
	}
	return hops
}

// parseHop reads one hop: an address, with or without a port, an IPv6
// one in brackets.
func parseHop(hop string) (netip.Addr, bool) {
	if ap, err := netip.ParseAddrPort(hop); err == nil {
		return ap.Addr().Unmap(), true
	}
	addr, err := netip.ParseAddr(strings.Trim(hop, "[]"))
	return addr.Unmap().WithZone(""), err == nil
}

func peerAddr(peer string) (netip.Addr, bool) {
	host, _, err := net.SplitHostPort(peer)
	if err != nil {
		host = peer
	}
	addr, err := netip.ParseAddr(host)
	return addr.Unmap().WithZone(""), err == nil
}

func isTrusted(addr netip.Addr, trusted []netip.Prefix) bool {
	for _, p := range trusted {
		if p.Contains(addr) {
			return true
		}
	}
	return false
}
