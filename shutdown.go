package vurb

import (
	"context"
	"net/http"
)

// Shutdown drains the app served by srv, your own http.Server, as
// ListenAndServe does when its context ends; it is the same code. Call it
// instead of srv.Shutdown, on SIGTERM, with a context that bounds the
// drain (ListenAndServe gives it WithShutdownGrace), and wait for it to
// return before the process exits: srv.ListenAndServe returns as soon as
// the drain starts.
//
// In order: readiness turns off (HealthHandler answers 503 "draining"),
// so a balancer stops sending new requests; srv stops accepting; the
// calls in flight on every handler of the app (HTTPHandler) are answered;
// then its sessions are closed, which ends their standing event streams,
// which would otherwise hold their connections, and srv.Shutdown returns
// once every connection is idle; the tasks running in this process, which
// outlive their requests, get the rest of ctx to finish and record their
// outcome. When ctx ends first, what remains is cut: each task still
// running fails, recorded as interrupted by the shutdown, each call is
// cancelled and answered as cut, each logged once, and the connections
// are closed.
//
// It returns nil when everything ended within ctx, ctx's error when what
// remained had to be cut (as http.Server.Shutdown does), or the error of
// closing srv. A drained app stays draining: serve a new App after it.
// Shutdown panics when srv is nil.
func (a *App) Shutdown(ctx context.Context, srv *http.Server) error {
	return a.site().Shutdown(ctx, srv)
}
