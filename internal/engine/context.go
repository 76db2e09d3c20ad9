package engine

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"
)

// callContext is the context a call's middleware and handler receive. It
// carries the Call without a separate context.WithValue, and it carries
// the call's deadline lazily: the context.WithDeadline behind it (a timer,
// a done channel, its entry in the caller's context: four allocations and
// a sixth of the bytes of a served call) is made the first time something
// asks for Done, for Err once the call is over, or for a value other than
// the call. Most handlers never do, and a lane call's deadline is kept by
// its watch anyway (watched.go). Served with the lanes, that was a tenth
// of vurb's own CPU per call (bench/README.md, "The lazy call context,
// again"); with the hand-off it saved nothing, since the caller's select
// makes the context at once.
type callContext struct {
	parent   context.Context
	deadline time.Time
	call     Call
	logger   atomic.Pointer[slog.Logger] // the call's, see Call.Logger
	round    Round                       // the call's, see RoundFrom
	fate     atomic.Uint32               // the handler's, see limit.go
	cutAt    atomic.Bool                 // the shutdown cut it (see cut.go)

	// The real context, made on first use (live): before that, a call
	// that ends (the call returned, or the cut) is only marked ended, and
	// the context made afterwards is made cancelled.
	state  atomic.Uint32
	mu     sync.Mutex // serialises live
	inner  context.Context
	cancel context.CancelFunc

	// A watched call's (watched.go): whether its watch fired and is on,
	// who claimed the answer, and the watch answering.
	fired    atomic.Bool
	watching atomic.Bool
	claim    atomic.Uint32
	watch    sync.WaitGroup
}

// The states of a call's real context (callContext.state).
const (
	ctxLazy  uint32 = iota // not made, the call not over
	ctxEnded               // not made, the call over
	ctxLive                // inner and cancel are set
)

// newCallContext returns the context of a call with the given deadline;
// the caller fills in its call in place (a Call holds an atomic and is
// never copied) and calls end once the call returns.
func newCallContext(parent context.Context, deadline time.Time) *callContext {
	c := &callContext{parent: parent, deadline: deadline}
	c.call.parent = parent
	c.call.logger = &c.logger
	c.call.round = &c.round
	return c
}

// current returns the real context, made on first use.
func (c *callContext) current() context.Context {
	if c.state.Load() == ctxLive {
		return c.inner
	}
	return c.live()
}

func (c *callContext) live() context.Context {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.state.Load() == ctxLive {
		return c.inner
	}
	c.inner, c.cancel = context.WithDeadline(c.parent, c.deadline)
	if !c.state.CompareAndSwap(ctxLazy, ctxLive) {
		// The call is over: its context is cancelled, as it would have
		// been had it been made up front and cancelled then.
		c.cancel()
		c.state.Store(ctxLive)
	}
	return c.inner
}

// end cancels the context: called once the call returns (a handler still
// running, one that outlived its deadline, then sees it cancelled), and by
// the shutdown's cut.
func (c *callContext) end() {
	if c.state.CompareAndSwap(ctxLazy, ctxEnded) || c.state.Load() == ctxEnded {
		return // never made (or being made by live, which sees it ended): live makes it cancelled
	}
	c.cancel() // live: set before the state said so
}

// Deadline is the earlier of the call's deadline and the parent's, as
// context.WithDeadline's would be.
func (c *callContext) Deadline() (time.Time, bool) {
	if d, ok := c.parent.Deadline(); ok && d.Before(c.deadline) {
		return d, true
	}
	return c.deadline, true
}

// Done makes the real context: only it closes a channel on time.
func (c *callContext) Done() <-chan struct{} { return c.current().Done() }

// Err answers without the real context while nothing has ended (Done is
// then open too, as the contract asks); otherwise it makes it, so that
// Err and Done agree.
func (c *callContext) Err() error {
	if c.state.Load() == ctxLazy && c.parent.Err() == nil && time.Until(c.deadline) > 0 {
		return nil
	}
	return c.current().Err()
}

// Value returns the call for callKey. Other keys go to the real context
// once it exists, so that context.Cause and contexts derived from this one
// find its cancellation; before, they go to the parent, which holds every
// value the real context would.
func (c *callContext) Value(key any) any {
	if key == (callKey{}) {
		return &c.call
	}
	if c.state.Load() == ctxLive {
		return c.inner.Value(key)
	}
	return c.parent.Value(key)
}

// String names the context in panics and debug output.
func (c *callContext) String() string {
	return "vurb.callContext(" + c.call.Key + ")"
}
