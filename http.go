package vurb

import (
	"context"
	"net/http"
)

// HTTPHandler returns an http.Handler serving the app over MCP's streamable
// HTTP transport; mount it at /mcp. Under WithStateless() every request is
// self-contained, so replicas need no session affinity.
//
// Sessions close after WithSessionIdleTimeout without a request, and past
// WithMaxSessions a request that would open one gets 503.
//
// Behind your own http.Server, bound what the handler cannot: set
// ReadHeaderTimeout (10 s in ListenAndServe) and IdleTimeout (2 min), and
// cap the connections (a net.Listener that bounds them). Leave ReadTimeout
// and WriteTimeout unset: net/http applies them to the whole request, so
// they would cancel or cut the event streams that outlive them. Bound the
// body read and each write per request instead, with an
// http.ResponseController, as ListenAndServe does (see WithBodyReadTimeout and
// WithWriteTimeout); without that, a client that trickles its body or stops
// reading holds its connection for good. On SIGTERM, stop the server with
// Shutdown, not srv.Shutdown alone, which would wait for event streams that
// never go idle and leave the app's tasks unwaited; mount HealthHandler
// for the balancer's checks.
func (a *App) HTTPHandler(opts ...ServeOption) http.Handler {
	return a.site().HTTPHandler(serveOptions(opts)...)
}

// ListenAndServe serves the app over streamable HTTP at http://addr/mcp,
// and its liveness and readiness at /livez and /readyz (HealthHandler),
// until ctx is cancelled. Then it drains the app as Shutdown does, within
// the WithShutdownGrace period: readiness turns off, it stops accepting
// connections, lets calls already accepted finish and answer, closes the
// sessions, waits for the running tasks, cuts what remains when the grace
// ends, and returns nil. Any other failure is returned.
func (a *App) ListenAndServe(ctx context.Context, addr string, opts ...ServeOption) error {
	return a.site().ListenAndServe(ctx, addr, serveOptions(opts)...)
}
