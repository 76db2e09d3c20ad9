package engine

import (
	"context"
	"errors"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A caller that writes its own answer (vurb's lanes, which hold the HTTP
// response) need not hand the chain to a worker to keep a handler that
// ignores its context from holding the call past its deadline: the chain
// runs on the caller's goroutine, and if the deadline (or the shutdown's
// cut) comes first, a watch answers from its own goroutine
// (Origin.Answerer) while the handler runs on. Served, the hand-off's two
// goroutine switches and their wake-ups were a tenth of a handshake-era
// call's server CPU at 64 clients (bench/README.md, "The lanes run
// handlers on the request's goroutine").
//
// The watch is a timer at the deadline, fired early by the cut; a caller
// that went away is not watched, since nobody reads its answer. The
// call's answer is claimed once, by whichever side is first: the chain
// returning (its answer wins, even when the deadline passes while the
// caller claims it), or the watch.

// An Answerer answers a call whose deadline, or the shutdown's cut, came
// before its chain returned (Origin.Answerer): from another goroutine
// than the caller's, which the handler still holds, and once.
type Answerer interface {
	AnswerLate(res *mcp.CallToolResult, err error)
}

// ErrAnswered is what a call made with Origin.Answerer returns when its
// deadline (or the shutdown's cut) came before its chain returned: its
// Answerer has answered it, and its caller writes nothing more.
var ErrAnswered = errors.New("vurb: the call was answered when its deadline came")

// Who claimed a watched call's answer (callContext.claim).
const (
	claimNone   uint32 = iota
	claimCaller        // the chain returned, or its goroutine exited
	claimWatch         // the deadline or the cut came first
)

// watches says whether dispatch runs the chain of cc on the caller's
// goroutine under a watch. An app with an observer keeps the hand-off, so
// that a call's events end when its client is answered.
func (ep *Endpoint) watches(cc *callContext) bool {
	return cc.call.origin.Answerer != nil && ep.rt.Observer == nil && !ep.rt.Inline
}

// fire is the watch of cc: the deadline's timer or the cut calls it. It
// answers at most once, however many times it fires.
func (cc *callContext) fire() {
	if !cc.fired.CompareAndSwap(false, true) {
		return
	}
	cc.watch.Add(1) // before the claim: a caller that finds it taken waits for the answer
	defer cc.watch.Done()
	if !cc.claim.CompareAndSwap(claimNone, claimWatch) {
		return
	}
	ep := cc.call.ep
	res, outcome, err := ep.overdue(cc.parent, cc)
	if outcome == OutcomeCancelled && ep.rt.cutting.Load() != 0 {
		ep.cut(cc.call.RequestID())
	}
	cc.call.origin.Answerer.AnswerLate(res, err)
}

// A watch is a timer that fires a watched call's watch at its deadline.
// A watch stopped before its deadline serves the next watched call (the
// Runtime keeps them): a timer and the function it runs were two of a
// served call's allocations. One that fired, or was firing, is left to
// the collector, since its function may still be reading its call.
type watch struct {
	timer *time.Timer
	cc    *callContext
}

// startWatch arms a watch for cc at its deadline.
func (ep *Endpoint) startWatch(cc *callContext) *watch {
	if w, _ := ep.rt.watches.Get().(*watch); w != nil {
		w.cc = cc
		w.timer.Reset(time.Until(cc.deadline))
		return w
	}
	w := &watch{cc: cc}
	w.timer = time.AfterFunc(time.Until(cc.deadline), func() { w.cc.fire() })
	return w
}

// stop disarms w, and keeps it for another call when its function never
// ran.
func (w *watch) stop(rt *Runtime) {
	if w.timer.Stop() {
		w.cc = nil
		rt.watches.Put(w)
	}
}

// watched runs the chain on the caller's goroutine, its answer given by
// the chain or, if the deadline or the cut comes first, by the watch.
func (ep *Endpoint) watched(ctx context.Context, cc *callContext) (*mcp.CallToolResult, Outcome, error) {
	w := ep.startWatch(cc)
	cc.watching.Store(true)
	if cc.cutAt.Load() { // cut before the watch was on (see runningCalls.cut)
		go cc.fire()
	}
	returned := false
	defer func() {
		if returned {
			return
		}
		// runtime.Goexit is unwinding the caller's goroutine: the call is
		// answered as exited, as a worker's would be, before it ends.
		ep.release(cc)
		if cc.claimAnswer(w, ep.rt) {
			cc.call.origin.Answerer.AnswerLate(ep.exited(cc).res, nil)
		}
	}()
	out := ep.run(cc)
	returned = true
	ep.release(cc)
	if cc.claimAnswer(w, ep.rt) {
		return ep.finish(ctx, cc, out)
	}
	return nil, OutcomeTimeout, ErrAnswered
}

// claimAnswer says whether the caller answers the call: true when its
// chain came first, and its watch is stopped; false once the
// watch, which came first, has answered.
func (cc *callContext) claimAnswer(w *watch, rt *Runtime) bool {
	if cc.claim.CompareAndSwap(claimNone, claimCaller) {
		w.stop(rt)
		return true
	}
	cc.watch.Wait()
	return false
}

// overdue is the answer of a call whose context ended before its chain
// returned: nothing when the caller went away, the cut result when the
// shutdown cut it, the timeout result otherwise.
func (ep *Endpoint) overdue(ctx context.Context, cc *callContext) (*mcp.CallToolResult, Outcome, error) {
	ep.abandon(ctx, cc)
	if ctx.Err() != nil {
		return nil, OutcomeCancelled, ctx.Err()
	}
	if cc.cutAt.Load() {
		return ep.cutResult(), OutcomeCancelled, nil
	}
	return ep.timedOut(), OutcomeTimeout, nil
}
