package guard

import (
	"net"
	"net/http"
	"strconv"
	"strings"

	"github.com/vurb-go/vurb/internal/engine"
)

// HostAndOrigin checks Host and Origin before any front sees a request: the fast
// lane, the tasks front, the scope challenger and the go-sdk all sit behind
// it. A Host that WithAllowedHosts does not list is refused; without
// WithAllowedHosts, a request that reached a loopback listener must name a
// loopback host (DNS rebinding: a web page whose name resolves to 127.0.0.1
// must not reach a local server), as the go-sdk checks on its own path
// unless WithHTTPOptions sets DisableLocalhostProtection. A browser's Origin
// must be the request's own, or one WithAllowedOrigins lists.
func HostAndOrigin(next http.Handler, hosts, origins map[string]bool, localhost bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if why := HostRefusal(r, hosts, localhost); why != "" {
			http.Error(w, why, http.StatusForbidden)
			return
		}
		if origin := r.Header.Get("Origin"); origin != "" && !originAllowed(origin, r, origins) {
			http.Error(w, "Forbidden: origin "+engine.Truncate(origin, 64)+" is not allowed", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// HostRefusal says why r's Host is refused, "" when it is allowed: the
// Host half of HostAndOrigin, for a public document that any origin may
// read (a server card) but only through a host the server answers.
func HostRefusal(r *http.Request, hosts map[string]bool, localhost bool) string {
	if len(hosts) > 0 && !hosts[r.Host] && !hosts[hostOnly(r.Host)] {
		return "Forbidden: host " + engine.Truncate(r.Host, 64) + " is not allowed"
	}
	if localhost && len(hosts) == 0 && rebound(r) {
		return "Forbidden: invalid Host header " + strconv.Quote(engine.Truncate(r.Host, 64)) +
			": a server listening on loopback answers loopback hosts only (see WithAllowedHosts)"
	}
	return ""
}

// rebound reports whether r reached a loopback listener under a host name
// that is not loopback.
func rebound(r *http.Request) bool {
	local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok || local == nil {
		return false
	}
	if tcp, ok := local.(*net.TCPAddr); ok { // the common listener: no address to format and parse
		return tcp.IP.IsLoopback() && !loopback(r.Host)
	}
	return loopback(local.String()) && !loopback(r.Host)
}

func originAllowed(origin string, r *http.Request, origins map[string]bool) bool {
	if len(origins) > 0 {
		return origins[origin]
	}
	// Same origin: the Origin's host is the request's Host.
	_, host, ok := strings.Cut(origin, "://")
	return ok && host == r.Host
}

// loopback reports whether hostport (a Host header or an address) names
// the loopback interface.
func loopback(hostport string) bool {
	host := strings.Trim(hostOnly(hostport), "[]")
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func hostOnly(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return h
	}
	return hostport
}
