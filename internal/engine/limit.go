package engine

import (
	"context"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A handler that ignores its context keeps its worker goroutine after its
// call has answered (see exec). Left alone, 2,000 such calls were 2,294
// goroutines that nobody could see. The runtime counts the handlers
// running, refuses calls past MaxRunning with
// the Busy message, and counts apart those still running after their
// call was answered: the overdue ones, which an operator reads with
// Runtime.Handlers and the observer sees come and go (HandlerOverdue,
// HandlerReturned).

// DefaultBusy is the Busy message of a runtime that sets none (%d: the
// bound reached).
const DefaultBusy = "the server is busy: %d handlers are already running; retry in a few seconds"

// The fate of a call's handler, settled once by whichever side is first:
// the handler returning, or its call answering without it.
const (
	fateRunning   uint32 = iota
	fateReturned         // the handler returned before its call answered without it
	fateAbandoned        // the call answered (timeout, cancellation) while the handler ran on
)

// admit counts a handler about to run, or reports the bound that refuses
// it (and gives back the slot the call took, see limits.go).
func (ep *Endpoint) admit() (ok bool, bound int64) {
	rt := ep.rt
	if n := rt.running.Add(1); rt.MaxRunning > 0 && n > rt.MaxRunning {
		rt.running.Add(-1)
		ep.freeSlot()
		return false, rt.MaxRunning
	}
	return true, 0
}

// release uncounts a handler that has returned and gives back its slot;
// if its call had already answered without it, the handler was overdue
// and is no longer.
func (ep *Endpoint) release(cc *callContext) {
	rt := ep.rt
	rt.running.Add(-1)
	ep.freeSlot()
	if cc.fate.CompareAndSwap(fateRunning, fateReturned) {
		return
	}
	rt.overdue.Add(-1)
	if obs := rt.Observer; obs != nil {
		e := ep.event(HandlerReturned, cc.call.RequestID(), time.Now())
		e.Duration = e.Time.Sub(cc.deadline)
		obs(context.WithoutCancel(cc.parent), e)
	}
}

// abandon records that the call answers while its handler may still run.
func (ep *Endpoint) abandon(ctx context.Context, cc *callContext) {
	if !cc.fate.CompareAndSwap(fateRunning, fateAbandoned) {
		return // it has returned: its late answer is merely dropped
	}
	ep.rt.overdue.Add(1)
	if obs := ep.rt.Observer; obs != nil {
		obs(ctx, ep.event(HandlerOverdue, cc.call.RequestID(), time.Now()))
	}
}

// busy is the answer to a call refused at bound.
func (ep *Endpoint) busy(bound int64) *mcp.CallToolResult {
	msg := ep.rt.Messages.Busy
	if msg == "" {
		msg = DefaultBusy
	}
	return ErrorResult(ep.prefix + fmt.Sprintf(msg, bound))
}

// HandlerCounts is what Runtime.Handlers reports.
type HandlerCounts struct {
	Running int64 // handlers running now, the overdue ones included
	Overdue int64 // handlers still running after their call was answered
}

// Handlers reads the handler gauges.
func (rt *Runtime) Handlers() HandlerCounts {
	return HandlerCounts{Running: rt.running.Load(), Overdue: rt.overdue.Load()}
}

// CutCalls marks the end of a shutdown grace period: it cancels the
// context of every call of the plan running now (each is answered at once
// as cut, see cutResult), and until done is called, a call that ends
// cancelled is logged once, with its request id, as cut by the shutdown.
// Several servers may cut at once; the calls cut are the plan's, whichever
// server holds them.
func (rt *Runtime) CutCalls() (done func()) {
	rt.cutting.Add(1)
	rt.calls.cut()
	return func() { rt.cutting.Add(-1) }
}

// cut logs a call the shutdown cut.
func (ep *Endpoint) cut(id string) {
	ep.rt.Logger.Warn("vurb: call cut at the end of the shutdown grace period",
		"request_id", id, "tool", ep.tool, "action", ep.action)
}

// NewRef returns a fresh reference id, from the sequence of request ids,
// for an internal error outside a tool call (a prompt's panic, say).
func (rt *Runtime) NewRef() string { return FormatID(rt.ids.Add(1)) }
