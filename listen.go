package vurb

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"
)

// DefaultShutdownGrace is how long ListenAndServe lets in-flight calls run
// after its context is cancelled.
const DefaultShutdownGrace = 10 * time.Second

// ShutdownGrace sets how long ListenAndServe waits for in-flight calls when
// it stops (default DefaultShutdownGrace).
func ShutdownGrace(d time.Duration) ServeOption { return func(c *serveConfig) { c.shutdownGrace = d } }

// ListenAndServe serves the app over streamable HTTP at http://addr/mcp
// until ctx is cancelled. Then it stops accepting connections, lets calls
// already accepted finish and answer (for up to the ShutdownGrace period),
// closes what remains and returns nil. Any other failure is returned.
func (a *App) ListenAndServe(ctx context.Context, addr string, opts ...ServeOption) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	return a.serveListener(ctx, ln, opts...)
}

// serveListener is ListenAndServe on a listener of the caller's.
func (a *App) serveListener(ctx context.Context, ln net.Listener, opts ...ServeOption) error {
	cfg := newServeConfig(opts)
	grace := cfg.shutdownGrace
	if grace <= 0 {
		grace = DefaultShutdownGrace
	}
	hs := a.httpServing(opts...)
	mux := http.NewServeMux()
	mux.Handle("/mcp", hs.handler)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	stopped := make(chan error, 1)
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), grace)
		defer cancel()
		// Shutdown closes the listeners, then waits for every connection to
		// go idle. Calls in flight are answered first; then the sessions are
		// closed, which ends the standing event streams that never go idle.
		go func() {
			for hs.inFlight.Load() > 0 && shutdown.Err() == nil {
				time.Sleep(10 * time.Millisecond)
			}
			for ss := range hs.server.Sessions() {
				ss.Close()
			}
		}()
		err := srv.Shutdown(shutdown)
		if errors.Is(err, context.DeadlineExceeded) {
			err = srv.Close() // the grace period is over: what remains is cut
		}
		stopped <- err
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return <-stopped
}
