package edge

import (
	"context"
	"errors"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/vurb-go/vurb/internal/edge/guard"
	"github.com/vurb-go/vurb/internal/edge/inflight"
)

// ListenAndServe is vurb.ListenAndServe; see its documentation there.
func (a *Site) ListenAndServe(ctx context.Context, addr string, opts ...ServeOption) error {
	cfg := newServeConfig(opts)
	cfg.mustNotStateLocal("ListenAndServe")
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	return a.ServeListener(ctx, ln, opts...)
}

// ServeListener is ListenAndServe on a listener of the caller's (the tests
// pass one on a port the system chose).
func (a *Site) ServeListener(ctx context.Context, ln net.Listener, opts ...ServeOption) error {
	cfg := newServeConfig(opts)
	cfg.mustNotStateLocal("ListenAndServe")
	grace := cfg.shutdownGrace
	if grace <= 0 {
		grace = DefaultShutdownGrace
	}
	hs := a.httpServing(opts...)
	t := cfg.timeouts.resolved()
	mux := http.NewServeMux()
	mux.Handle("/mcp", withDeadlines(hs.handler, t))
	health := withDeadlines(a.HealthHandler(), t)
	mux.Handle("GET "+LivePath, health)
	mux.Handle("GET "+ReadyPath, health)
	if cfg.bearer != nil {
		for _, p := range cfg.bearer.metadataPaths {
			mux.Handle(p, withDeadlines(hs.handler, t))
		}
	}
	for _, p := range hs.cardPaths { // card.go
		mux.Handle(p, withDeadlines(hs.handler, t))
	}
	// No ReadTimeout or WriteTimeout: withDeadlines sets them per request,
	// so that event streams outlive them (see deadlines.go).
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: t.header, IdleTimeout: t.idle}
	ln = guard.LimitListen(ln, cfg.connCap())
	if l, ok := ln.(*guard.LimitListener); ok {
		srv.ConnState = l.Track // idle connections make room at the bound
	}
	stopped := make(chan error, 1)
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), grace)
		defer cancel()
		_, err := a.drain(shutdown, srv)
		stopped <- err
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return <-stopped
}

// cutAnswers bounds how long a shutdown waits, once the grace is over, for
// the calls and tasks it cut to write their answers.
const cutAnswers = time.Second

// inFlight counts the requests being answered, and lets a shutdown wait
// until there are none.
type inFlight struct {
	mu   sync.Mutex
	n    int
	idle inflight.Drained // when n drops to zero
}

func (f *inFlight) add(delta int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.n += delta
	if f.n == 0 {
		f.idle.Done()
	}
}

// count is the number of requests in flight.
func (f *inFlight) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.n
}

// wait returns when no request is in flight, or when ctx is done.
func (f *inFlight) wait(ctx context.Context) {
	f.mu.Lock()
	if f.n == 0 {
		f.mu.Unlock()
		return
	}
	idle := f.idle.Next()
	f.mu.Unlock()
	select {
	case <-idle:
	case <-ctx.Done():
	}
}
