package vurb

import (
	"net/http"
)

// HealthHandler answers liveness and readiness probes: a request whose
// path ends in /livez is liveness, one ending in /readyz is readiness,
// anything else 404. ListenAndServe serves it at /livez and /readyz,
// beside /mcp, without the Host, origin or auth checks of /mcp, since a
// balancer or kubelet calls them by address; behind your own
// http.Server, mount it at both:
//
//	h := app.HealthHandler()
//	mux.Handle("GET /livez", h)
//	mux.Handle("GET /readyz", h)
//
// Liveness is 200 while the process answers. Readiness is 200, and 503
// once the app drains (ListenAndServe's context ended, or Shutdown was
// called), so a balancer sends nothing new to a replica that stops.
// Both answer a small JSON detail:
//
//	{"status":"ready","draining":false,"store":"ok"}
//
// where status is "live", "ready" or "draining", and store is how the
// shared store of WithReplicas (or WithSessionStore) last answered a
// probe: "ok", "unavailable", "unknown" before the first probe, or "none"
// without a shared store. A store outage shows there but never makes
// readiness fail: every replica shares the store, so a probe tied to it
// would take the whole pool out at once, while sessionless calls and the
// sessions each replica holds are served through the outage. Alert on
// the detail instead. Reading the state costs no request to the store:
// the session tables already probe it every 2 s; a replica without them
// (WithStateless) probes it at most as often, in the background.
func (a *App) HealthHandler() http.Handler {
	return a.site().HealthHandler()
}
