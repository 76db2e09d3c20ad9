package edge

import (
	"net"
	"net/http"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/engine"
)

// HTTPHandler is vurb.HTTPHandler; see its documentation there.
func (a *Site) HTTPHandler(opts ...ServeOption) http.Handler {
	return a.httpServing(opts...).handler
}

// httpServing is a streamable HTTP handler with what a graceful shutdown
// needs: the SDK server behind it and the requests in flight.
type httpServing struct {
	handler  http.Handler
	server   *mcp.Server
	inFlight inFlight
}

func (a *Site) httpServing(opts ...ServeOption) *httpServing {
	cfg := newServeConfig(opts)
	server := a.newServer(&cfg)
	var ho mcp.StreamableHTTPOptions
	if cfg.sdkHTTP != nil {
		ho = *cfg.sdkHTTP
	}
	ho.Stateless = ho.Stateless || cfg.stateless
	ho.JSONResponse = ho.JSONResponse || cfg.jsonResponse
	if ho.Logger == nil {
		ho.Logger = sdkLogger(a.Logger)
	}
	ho.SessionTimeout = cfg.sessionTimeout(ho.SessionTimeout)
	// Host and Origin are checked once, in front of every path (guard), with
	// the go-sdk's localhost rule unless the user's options turn it off.
	ho.DisableLocalhostProtection = true
	ho.MaxRequestBodyBytes = cfg.maxBodyBytes
	if ho.MaxRequestBodyBytes == 0 {
		ho.MaxRequestBodyBytes = int64(a.MaxBytes) + 64<<10 // the arguments plus the JSON-RPC envelope
	}
	var fast func(http.Handler) http.Handler
	if !cfg.noLane {
		userCacheable := a.ServerOptions != nil && a.ServerOptions.SetCacheable != nil
		routes := a.view(&cfg)
		impl := &mcp.Implementation{Name: a.Name, Version: a.Version}
		fast = func(sdk http.Handler) http.Handler {
			if l := newLane(sdk, a.Plan.Runtime(), routes, impl, &ho, userCacheable, a.RequestMW, a.views(&cfg)); l != nil {
				return l
			}
			return sdk
		}
	}
	h := capSessions(generations(server, ho, fast, a.taskFront(&cfg, &ho)), server, cfg.sessionCap(), cfg.sessionShare(), ho.Stateless)
	hs := &httpServing{server: server}
	counted := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost { // a POST carries calls; a GET is a standing stream
			hs.inFlight.add(1)
			defer hs.inFlight.add(-1)
		}
		h.ServeHTTP(w, r)
	})
	var served http.Handler = counted
	if cfg.challenges {
		if cfg.bearer == nil {
			panic("vurb: ScopeChallenges needs BearerAuth: a challenge names the resource metadata BearerAuth serves, and scopes come from the tokens it verifies")
		}
		if len(a.Scopes) > 0 { // else nothing to challenge for: no body to read
			served = a.challenger(&cfg, server, ho.MaxRequestBodyBytes, served)
		}
	}
	if cfg.bearer != nil {
		cfg.bearer = cfg.bearer.forApp(a.Scopes)
		served = cfg.bearer.protect(served, a.Logger) // every request, the fast lane's included
	}
	hs.handler = guard(served, &cfg)
	if cfg.bearer != nil {
		hs.handler = cfg.bearer.withMetadata(hs.handler) // public, cross-origin: outside the guard
	}
	return hs
}

// generations is one endpoint for both protocol generations. A request of
// revision 2026-07-28 or later that names no session is sessionless by
// definition, so it goes to a stateless SDK handler; everything else
// (initialize, requests on a session, its GET stream and DELETE) goes to the
// stateful one, which the go-sdk refuses to let answer the new revision.
// Both serve the same server, with the same tools, filters and hardening.
// With Stateless() set, every request is stateless. fast, when not nil,
// puts the fast lane (see lane) in front of the stateless handler; tasks,
// when not nil, puts the tasks extension (see taskFront) in front of both.
func generations(server *mcp.Server, ho mcp.StreamableHTTPOptions, fast, tasks func(http.Handler) http.Handler) http.Handler {
	getServer := func(*http.Request) *mcp.Server { return server }
	sessionless := ho
	sessionless.Stateless = true
	stateless := withRemote(mcp.NewStreamableHTTPHandler(getServer, &sessionless))
	if fast != nil {
		stateless = fast(stateless)
	}
	if tasks != nil {
		stateless = tasks(stateless)
	}
	if ho.Stateless {
		return stateless
	}
	stateful := withRemote(mcp.NewStreamableHTTPHandler(getServer, &ho))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get(sessionIDHeader) == "" && sessionlessRevision(r.Header.Get(protocolVersionHeader)) {
			stateless.ServeHTTP(w, r)
			return
		}
		stateful.ServeHTTP(w, r)
	})
}

// The MCP HTTP headers vurb reads (net/http canonicalises their case).
const (
	sessionIDHeader       = "Mcp-Session-Id"
	protocolVersionHeader = "Mcp-Protocol-Version"
)

// sessionlessRevision reports whether version (a YYYY-MM-DD revision, as
// the header carries it) is one without sessions.
func sessionlessRevision(version string) bool { return engine.Sessionless(version) }

// guard checks Host and Origin before any front sees a request: the fast
// lane, the tasks front, the scope challenger and the go-sdk all sit behind
// it. A Host that AllowedHosts does not list is refused; without
// AllowedHosts, a request that reached a loopback listener must name a
// loopback host (DNS rebinding: a web page whose name resolves to 127.0.0.1
// must not reach a local server), as the go-sdk checks on its own path
// unless HTTPOptions sets DisableLocalhostProtection. A browser's Origin
// must be the request's own, or one AllowedOrigins lists.
func guard(next http.Handler, cfg *serveConfig) http.Handler {
	localhost := cfg.sdkHTTP == nil || !cfg.sdkHTTP.DisableLocalhostProtection
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if len(cfg.allowedHosts) > 0 && !cfg.allowedHosts[r.Host] && !cfg.allowedHosts[hostOnly(r.Host)] {
			http.Error(w, "Forbidden: host "+engine.Truncate(r.Host, 64)+" is not allowed", http.StatusForbidden)
			return
		}
		if localhost && len(cfg.allowedHosts) == 0 && rebound(r) {
			http.Error(w, "Forbidden: invalid Host header "+strconv.Quote(engine.Truncate(r.Host, 64))+
				": a server listening on loopback answers loopback hosts only (see AllowedHosts)", http.StatusForbidden)
			return
		}
		if origin := r.Header.Get("Origin"); origin != "" && !originAllowed(origin, r, cfg) {
			http.Error(w, "Forbidden: origin "+engine.Truncate(origin, 64)+" is not allowed", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// rebound reports whether r reached a loopback listener under a host name
// that is not loopback.
func rebound(r *http.Request) bool {
	local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	return ok && local != nil && loopback(local.String()) && !loopback(r.Host)
}

func originAllowed(origin string, r *http.Request, cfg *serveConfig) bool {
	if len(cfg.allowedOrigins) > 0 {
		return cfg.allowedOrigins[origin]
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
