package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The call path, top-down: Plan.Call finds the route; a grouped route picks
// the endpoint by its discriminator; Endpoint.call numbers the call and
// reports it; exec decodes and validates, then runs the precomposed chain
// under the deadline (on a worker, see workers.go); finish turns
// what the chain did into the result a client reads.

// outcome is what the goroutine that ran the chain hands back.
type outcome struct {
	res      *mcp.CallToolResult
	err      error
	panicked bool // or exited, or failed inside vurb: an internal error
	exited   bool // runtime.Goexit ended the goroutine that ran the chain
	late     bool // the handler returned after its context was done
}

// call runs the endpoint: decode and validate, the chain under the
// deadline, then the state-sync notice. Without an observer it costs one
// nil check more than exec.
//
// The request's goroutine decodes the arguments at the bottom of call,
// exec and the decoder, and the go-sdk gives each request a fresh
// goroutine whose stack has just the room the SDK's own handler needs: a
// frame more than that on the way to the decoder and the runtime copies
// the stack, on every call, which cost about 8 µs of a 230 µs in-memory
// round trip. So the frames above the decoder stay small: the origin goes
// by pointer, the observer's events are in observed, and what runs after
// the decoding is in dispatch.
func (ep *Endpoint) call(ctx context.Context, args json.RawMessage, o *Origin) (*mcp.CallToolResult, error) {
	id := ep.rt.ids.Add(1)
	if ep.rt.Observer != nil {
		return ep.observed(ctx, args, o, id)
	}
	res, outcome, err := ep.exec(ctx, args, o, id)
	if outcome == OutcomeOK && ep.notice != "" {
		res = withNotice(res, ep.notice)
	} else if outcome == OutcomeCancelled && ep.rt.cutting.Load() != 0 {
		ep.cut(FormatID(id))
	}
	return res, err
}

// observed is call with the observer's events.
func (ep *Endpoint) observed(ctx context.Context, args json.RawMessage, o *Origin, id uint64) (*mcp.CallToolResult, error) {
	obs := ep.rt.Observer
	start := time.Now()
	rid := FormatID(id) // once for all of the call's events
	obs(ctx, ep.event(CallStarted, rid, start))
	res, outcome, err := ep.exec(ctx, args, o, id)
	if outcome == OutcomeOK && ep.notice != "" {
		res = withNotice(res, ep.notice)
		e := ep.event(CacheInvalidated, rid, time.Now())
		e.Patterns = ep.spec.Sync.Invalidates
		obs(ctx, e)
	} else if outcome == OutcomeCancelled && ep.rt.cutting.Load() != 0 {
		ep.cut(rid)
	}
	e := ep.event(CallFinished, rid, time.Now())
	e.Duration, e.Outcome = e.Time.Sub(start), outcome
	obs(ctx, e)
	return res, err
}

func (ep *Endpoint) event(kind EventKind, id string, at time.Time) Event {
	return Event{Kind: kind, Time: at, Tool: ep.tool, Action: ep.action, Key: ep.key, Name: ep.name, RequestID: id}
}

// withNotice returns res with the invalidation notice as its last block,
// after the result a client displays, without touching the handler's own value.
func withNotice(res *mcp.CallToolResult, notice string) *mcp.CallToolResult {
	out := *res
	out.Content = append(append(make([]mcp.Content, 0, len(res.Content)+1), res.Content...), &mcp.TextContent{Text: notice})
	return &out
}

// exec decodes and validates, then runs the chain (dispatch), and says
// how the call ended.
func (ep *Endpoint) exec(ctx context.Context, args json.RawMessage, o *Origin, id uint64) (*mcp.CallToolResult, Outcome, error) {
	if len(ep.scopes) > 0 { // before the arguments: a caller without the scopes learns nothing from them
		if missing := Missing(ep.scopes, o.Token); missing != nil {
			return ep.denied(missing), OutcomeDenied, nil
		}
	}
	in, err := ep.decode(args, ep.opts)
	if err != nil {
		return ep.invalid(err), OutcomeValidation, nil
	}
	return ep.dispatch(ctx, args, in, o, id)
}

// invalid is the answer to arguments the decoder refused.
func (ep *Endpoint) invalid(err error) *mcp.CallToolResult {
	return ErrorResult(ep.prefix + fmt.Sprintf(ep.rt.Messages.InvalidArguments, err))
}

// dispatch runs the chain of a call whose arguments are valid (in): its
// limits, then the handler, on a worker under the deadline.
func (ep *Endpoint) dispatch(ctx context.Context, args json.RawMessage, in any, o *Origin, id uint64) (*mcp.CallToolResult, Outcome, error) {
	if stop, res, outcome, err := ep.limit(ctx, o); stop { // limits.go: a slot, then rate limits
		return res, outcome, err
	}
	if ok, bound := ep.admit(); !ok {
		return ep.busy(bound), OutcomeBusy, nil
	}
	cc := newCallContext(ctx, time.Now().Add(ep.timeout))
	cc.call.Tool, cc.call.Action, cc.call.Key, cc.call.Name = ep.tool, ep.action, ep.key, ep.name
	cc.call.Input, cc.call.Arguments = in, args
	cc.call.id, cc.call.origin, cc.call.ep = id, o, ep
	ep.rt.calls.add(id, cc)
	defer ep.rt.calls.remove(id)
	defer cc.end()
	// gate.go: before the round's state is spent, so that a call the gate
	// refuses may be sent again as it was, and before a task's record.
	if ep.flow != nil {
		if res := ep.enterFlow(ctx, cc); res != nil {
			ep.release(cc)
			return res, OutcomeState, nil
		}
	}
	if err := OpenRound(ctx, ep.rt, &cc.round, ep.key, cc.call.origin, args); err != nil {
		ep.unclaim(cc)
		ep.release(cc)
		return nil, OutcomeValidation, err
	}
	if admit := cc.call.origin.Admit; admit != nil {
		if err := admit(); err != nil {
			ep.unclaim(cc)
			ep.release(cc)
			return nil, OutcomeBusy, err
		}
	}

	if ep.rt.Inline {
		// Deferred: runtime.Goexit in the handler ends this goroutine too,
		// and must not keep the handler's slot.
		defer ep.release(cc)
		return ep.finish(ctx, cc, ep.run(cc))
	}
	if ep.watches(cc) {
		return ep.watched(ctx, cc) // watched.go: the caller answers, and a watch if the deadline comes first
	}
	// The chain runs on a worker goroutine so that a handler which ignores
	// its context cannot hold the call past its deadline. Such a handler
	// keeps running after the call has returned; its late result is dropped.
	w := startJob(ep, cc)
	select {
	case out := <-w.answers:
		return ep.handBack(ctx, cc, w, out)
	case <-cc.Done(): // the deadline, or the caller gave up
	}
	// Both may have been ready: an answer given in time wins; one given
	// after the deadline is dropped like any late answer (finish sees it
	// is late).
	select {
	case out := <-w.answers:
		return ep.handBack(ctx, cc, w, out)
	default:
	}
	return ep.overdue(ctx, cc)
}

// cutResult is the answer of a call the shutdown cut: the client can act
// on it by calling again, on this server once it is back or on another.
func (ep *Endpoint) cutResult() *mcp.CallToolResult {
	return ErrorResult(ep.prefix + "the server is shutting down and cut this call at the end of its grace period; it may have partly run: check, then call again")
}

// handBack returns a worker that answered to the pool, unless
// runtime.Goexit ended its goroutine, and finishes the call.
func (ep *Endpoint) handBack(ctx context.Context, cc *callContext, w *worker, out outcome) (*mcp.CallToolResult, Outcome, error) {
	if !out.exited {
		idleWorkers.Put(w)
	}
	return ep.finish(ctx, cc, out)
}

func (ep *Endpoint) timedOut() *mcp.CallToolResult {
	return ErrorResult(ep.prefix + fmt.Sprintf(ep.rt.Messages.Timeout, ep.timeout))
}

// pastDeadline reports whether ctx's deadline has passed. It reads the
// clock rather than ctx.Err(), which is set only when the runtime gets to
// the deadline's timer, later under load. time.Until reads only the
// monotonic clock when the deadline carries it, as the engine's do.
func pastDeadline(ctx context.Context) bool {
	d, ok := ctx.Deadline()
	return ok && time.Until(d) <= 0
}

// run executes the chain and recovers a panic into an error result whose
// reference id joins it to the logged stack; the stack never reaches the
// client. It runs on a worker or, inline, on the caller's goroutine.
func (ep *Endpoint) run(cc *callContext) (out outcome) {
	returned := false
	defer func() {
		if p := recover(); p != nil {
			out = ep.recovered(cc, p)
			ep.unclaim(cc)
		} else if !returned {
			ep.unclaim(cc) // runtime.Goexit ended the chain
		}
	}()
	res, err := ep.handler(cc, &cc.call)
	returned = true
	if s := cc.call.step; s != nil {
		ok := err == nil && (res == nil || !res.IsError)
		if failed := ep.settle(cc, s, ok); failed != nil {
			res, err = nil, failed
		} else if ok {
			res = withFlowMeta(res, s)
		}
	}
	return outcome{res: res, err: err, late: pastDeadline(cc)}
}

// unclaim releases the move a call claimed and will not make.
func (ep *Endpoint) unclaim(cc *callContext) {
	if s := cc.call.step; s != nil {
		_ = ep.settle(cc, s, false)
	}
}

// recovered is run's outcome of a panic p: a detached handler reaching
// for its session (handover) ends the call with ErrHandover; anything
// else is a panic.
func (ep *Endpoint) recovered(cc *callContext, p any) outcome {
	if _, ok := p.(handover); ok && cc.call.origin.Detached {
		return outcome{err: ErrHandover}
	}
	return ep.panicked(cc, p)
}

// exited is the outcome of a chain whose goroutine runtime.Goexit ended.
func (ep *Endpoint) exited(cc *callContext) outcome {
	out := ep.panicked(cc, "the handler's goroutine exited (runtime.Goexit) before it returned")
	out.exited = true
	return out
}

// panicked logs a recovered panic with its stack and a reference id, and
// returns the generic error result the client sees.
func (ep *Endpoint) panicked(cc *callContext, p any) outcome {
	ref := cc.call.RequestID()
	ep.rt.Logger.Error("vurb: handler panicked",
		"ref", ref, "tool", ep.tool, "action", ep.action, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
	return outcome{res: ErrorResult(ep.prefix + fmt.Sprintf(ep.rt.Messages.Internal, ref)), panicked: true}
}

// internal logs a failure inside vurb (a result it cannot encode) and
// returns the generic error result the client sees.
func (ep *Endpoint) internal(cc *callContext, err error) *mcp.CallToolResult {
	ref := cc.call.RequestID()
	ep.rt.Logger.Error("vurb: internal error", "ref", ref, "tool", ep.tool, "action", ep.action, "err", err.Error())
	return ErrorResult(ep.prefix + fmt.Sprintf(ep.rt.Messages.Internal, ref))
}

// finish turns the chain's outcome into the call's result.
func (ep *Endpoint) finish(ctx context.Context, cc *callContext, out outcome) (*mcp.CallToolResult, Outcome, error) {
	switch {
	case out.panicked:
		return out.res, OutcomePanic, nil
	case cc.cutAt.Load():
		return ep.cutResult(), OutcomeCancelled, nil
	case out.late && ctx.Err() == nil:
		return ep.timedOut(), OutcomeTimeout, nil
	case out.err == nil && out.res == nil:
		return &mcp.CallToolResult{Content: []mcp.Content{}}, OutcomeOK, nil
	case out.err == nil && out.res.IsError:
		if err, ok := failure(out.res); ok {
			return ep.internal(cc, err), OutcomePanic, nil
		}
		return out.res, OutcomeHandler, nil
	case out.err == nil:
		return out.res, OutcomeOK, nil
	case out.err == ErrHandover:
		return nil, OutcomeCancelled, ErrHandover
	case errors.Is(out.err, ErrInputRequired):
		asked, state, err := SealRound(ep.rt, &cc.round)
		if err != nil {
			return ep.internal(cc, err), OutcomePanic, nil
		}
		return &mcp.CallToolResult{InputRequests: asked, RequestState: state}, OutcomeInputRequired, nil
	case ctx.Err() != nil:
		return nil, OutcomeCancelled, ctx.Err()
	case errors.Is(out.err, context.DeadlineExceeded) && cc.Err() != nil:
		return ep.timedOut(), OutcomeTimeout, nil
	}
	var rpcErr *jsonrpc.Error
	if errors.As(out.err, &rpcErr) { // the handler's protocol error, as the SDK passes it on
		return nil, OutcomeHandler, rpcErr
	}
	if internal, ok := asInternal(out.err); ok {
		return ep.internal(cc, internal), OutcomePanic, nil
	}
	return ErrorResult(ep.prefix + out.err.Error()), OutcomeHandler, nil
}

// InternalError is a failure of the server, not of the call: its text is
// for the log, and the client gets the Internal message with a reference.
type InternalError struct{ Err error }

func (e InternalError) Error() string { return e.Err.Error() }
func (e InternalError) Unwrap() error { return e.Err }

// asInternal finds an InternalError in err's chain. It is a function of
// its own so that the error path alone pays for errors.As's target.
func asInternal(err error) (InternalError, bool) {
	var ie InternalError
	ok := errors.As(err, &ie)
	return ie, ok
}
