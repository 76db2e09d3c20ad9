package edge

import (
	"context"
	"net/http"
	"time"
)

// Shutdown is vurb.App.Shutdown; see its documentation there.
func (a *Site) Shutdown(ctx context.Context, srv *http.Server) error {
	if srv == nil {
		panic("vurb: Shutdown needs the *http.Server that serves the app's handler; to stop ListenAndServe, cancel its context")
	}
	cut, err := a.drain(ctx, srv)
	if cut && err == nil {
		err = ctx.Err() // as http.Server.Shutdown says its context ended first
	}
	return err
}

// drain stops srv and the app's HTTP handlers gracefully, within ctx: it
// is the one shutdown of both ListenAndServe and Shutdown. In order:
//
//  1. readiness turns off (health.go), so a balancer stops sending, and
//     the app goes on serving for DrainDelay, so that its check sees it;
//  2. srv stops accepting, and the calls in flight on every handler of
//     the app are answered; then the sessions are closed, which ends the
//     standing event streams that never go idle (srv.Shutdown waits for
//     every connection to go idle);
//  3. the tasks running in this process, which outlive their requests,
//     get the rest of ctx;
//  4. when ctx ends first, what remains is cut (see cut).
//
// It reports whether it had to cut, and the error of closing srv.
func (a *Site) drain(ctx context.Context, srv *http.Server) (cut bool, err error) {
	a.draining.Store(true)
	if a.DrainDelay > 0 { // readiness reads 503 while the balancer's check comes round
		t := time.NewTimer(a.DrainDelay)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
		}
	}
	servings := a.servings.live()
	go func() {
		for _, hs := range servings {
			if hs.inFlight.wait(ctx); ctx.Err() != nil {
				return // the grace is over: cut closes them, once the calls it cut have answered
			}
		}
		for _, hs := range servings {
			for ss := range hs.server.Sessions() {
				ss.Close()
			}
		}
	}()
	err = srv.Shutdown(ctx)
	if t := a.Tasks; err == nil && t != nil {
		t.Running.Wait(ctx)
	}
	if ctx.Err() == nil {
		return false, err
	}
	return true, a.cut(srv, servings) // the grace period is over: what remains is cut
}

// cut ends what the grace period left running: the tasks of this process
// (each fails saying the shutdown interrupted it, logged once with its
// id), then the calls (each cancelled through its context and answered at
// once as cut, logged once by the engine with its request id, on either
// protocol revision), then, once their answers are written (or after
// cutAnswers), the sessions and the connections.
func (a *Site) cut(srv *http.Server, servings []*httpServing) error {
	if t := a.Tasks; t != nil {
		if n := t.Running.Cut(); n > 0 {
			a.Logger.Warn("vurb: the shutdown grace period is over; cutting the tasks still running", "tasks", n)
			settled, cancel := context.WithTimeout(context.Background(), cutAnswers)
			t.Running.Wait(settled) // each records its failure
			cancel()
		}
	}
	done := a.Plan.Runtime().CutCalls()
	defer func() {
		// The calls cut end on their own goroutines once their context is
		// cancelled; they are logged as cut until then.
		time.AfterFunc(time.Second, done)
	}()
	n := 0
	for _, hs := range servings {
		n += hs.inFlight.count()
	}
	if n > 0 {
		a.Logger.Warn("vurb: the shutdown grace period is over; cutting the requests still in flight", "requests", n)
		answered, cancel := context.WithTimeout(context.Background(), cutAnswers)
		for _, hs := range servings {
			hs.inFlight.wait(answered)
		}
		cancel()
	}
	for _, hs := range servings {
		for ss := range hs.server.Sessions() {
			ss.Close()
		}
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
