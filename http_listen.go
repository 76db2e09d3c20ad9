package vurb

import (
	"context"
	"errors"
	"net"
	"net/http"
	"sync"
	"time"
)

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
			hs.inFlight.wait(shutdown)
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

// inFlight counts the requests being answered, and lets a shutdown wait
// until there are none.
type inFlight struct {
	mu   sync.Mutex
	n    int
	idle chan struct{} // closed when n drops to zero; nil while nobody waits
}

func (f *inFlight) add(delta int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.n += delta
	if f.n == 0 && f.idle != nil {
		close(f.idle)
		f.idle = nil
	}
}

// wait returns when no request is in flight, or when ctx is done.
func (f *inFlight) wait(ctx context.Context) {
	f.mu.Lock()
	if f.n == 0 {
		f.mu.Unlock()
		return
	}
	if f.idle == nil {
		f.idle = make(chan struct{})
	}
	idle := f.idle
	f.mu.Unlock()
	select {
	case <-idle:
	case <-ctx.Done():
	}
}
