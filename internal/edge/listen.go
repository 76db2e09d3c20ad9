package edge

import (
	"context"
	"errors"
	"net"
	"net/http"
	"sync"
	"time"
)

// ListenAndServe is vurb.ListenAndServe; see its documentation there.
func (a *Site) ListenAndServe(ctx context.Context, addr string, opts ...ServeOption) error {
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
	grace := cfg.shutdownGrace
	if grace <= 0 {
		grace = DefaultShutdownGrace
	}
	hs := a.httpServing(opts...)
	t := cfg.timeouts.resolved()
	mux := http.NewServeMux()
	mux.Handle("/mcp", withDeadlines(hs.handler, t))
	if cfg.bearer != nil {
		for _, p := range cfg.bearer.metadataPaths {
			mux.Handle(p, withDeadlines(hs.handler, t))
		}
	}
	// No ReadTimeout or WriteTimeout: withDeadlines sets them per request,
	// so that event streams outlive them (see deadlines.go).
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: t.header, IdleTimeout: t.idle}
	ln = limitListen(ln, cfg.connCap())
	if l, ok := ln.(*limitListener); ok {
		srv.ConnState = l.track // idle connections make room at the bound
	}
	stopped := make(chan error, 1)
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), grace)
		defer cancel()
		// Shutdown closes the listeners, then waits for every connection to
		// go idle. Calls in flight are answered first; then the sessions are
		// closed, which ends the standing event streams that never go idle.
		go func() {
			if hs.inFlight.wait(shutdown); shutdown.Err() != nil {
				return // the grace is over: cut closes them, once the calls it cut have answered
			}
			for ss := range hs.server.Sessions() {
				ss.Close()
			}
		}()
		err := srv.Shutdown(shutdown)
		if t := a.Tasks; err == nil && t != nil {
			// Tasks outlive their requests: they get the rest of the grace.
			if t.running.wait(shutdown); shutdown.Err() != nil {
				err = context.DeadlineExceeded
			}
		}
		if errors.Is(err, context.DeadlineExceeded) {
			err = a.cut(srv, hs) // the grace period is over: what remains is cut
		}
		stopped <- err
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return <-stopped
}

// cut ends what the grace period left running: the tasks of this process
// (each fails saying the shutdown interrupted it, logged once with its
// id), then the calls (each cancelled through its context and answered at
// once as cut, logged once by the engine with its request id, on either
// protocol revision), then, once their answers are written (or after
// cutAnswers), the sessions and the connections.
func (a *Site) cut(srv *http.Server, hs *httpServing) error {
	if t := a.Tasks; t != nil {
		if n := t.running.cut(); n > 0 {
			a.Logger.Warn("vurb: the shutdown grace period is over; cutting the tasks still running", "tasks", n)
			settled, cancel := context.WithTimeout(context.Background(), cutAnswers)
			t.running.wait(settled) // each records its failure
			cancel()
		}
	}
	done := a.Plan.Runtime().CutCalls()
	defer func() {
		// The calls cut end on their own goroutines once their context is
		// cancelled; they are logged as cut until then.
		time.AfterFunc(time.Second, done)
	}()
	if n := hs.inFlight.count(); n > 0 {
		a.Logger.Warn("vurb: the shutdown grace period is over; cutting the requests still in flight", "requests", n)
		answered, cancel := context.WithTimeout(context.Background(), cutAnswers)
		hs.inFlight.wait(answered)
		cancel()
	}
	for ss := range hs.server.Sessions() {
		ss.Close()
	}
	// A handler's return is not its answer on the wire: net/http writes
	// what it buffered after the handler returns. Shut down again, briefly,
	// so that each connection goes idle once its answer is out, then close
	// what is left.
	settled, cancel := context.WithTimeout(context.Background(), cutAnswers)
	defer cancel()
	if srv.Shutdown(settled) == nil {
		return nil
	}
	return srv.Close()
}

// cutAnswers bounds how long a shutdown waits, once the grace is over, for
// the calls and tasks it cut to write their answers.
const cutAnswers = time.Second

// inFlight counts the requests being answered, and lets a shutdown wait
// until there are none.
type inFlight struct {
	mu   sync.Mutex
	n    int
	idle drained // when n drops to zero
}

func (f *inFlight) add(delta int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.n += delta
	if f.n == 0 {
		f.idle.done()
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
	idle := f.idle.next()
	f.mu.Unlock()
	select {
	case <-idle:
	case <-ctx.Done():
	}
}
