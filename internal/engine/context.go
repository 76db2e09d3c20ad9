package engine

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"
)

// callContext is the context a call's middleware and handler receive. It
// carries the Call without a separate context.WithValue, and it carries the
// call's deadline lazily: a context.WithDeadline costs a timer, a channel
// and five allocations, about as much as decoding the arguments, and most
// handlers never look. The real context is made the first time something
// asks for Done, Err past the deadline, or any value but the call: from
// then on every method is that context's.
type callContext struct {
	parent   context.Context
	deadline time.Time
	call     Call
	logger   atomic.Pointer[slog.Logger] // the call's, see Call.Logger
	round    Round                       // the call's, see RoundFrom
	fate     atomic.Uint32               // the handler's, see limit.go

	state  atomic.Uint32 // lazy, ended or live
	mu     sync.Mutex    // serialises materialize
	inner  context.Context
	cancel context.CancelFunc
}

const (
	ctxLazy  uint32 = iota // nothing made yet
	ctxEnded               // the call returned before anything was made
	ctxLive                // inner and cancel are set
)

// newCallContext returns the context of a call with the given deadline;
// the caller fills in its call in place (a Call holds an atomic and is
// never copied).
func newCallContext(parent context.Context, deadline time.Time) *callContext {
	c := &callContext{parent: parent, deadline: deadline}
	c.call.parent = parent
	c.call.logger = &c.logger
	c.call.round = &c.round
	return c
}

// current returns the real context, making it on first use.
func (c *callContext) current() context.Context {
	if c.state.Load() == ctxLive {
		return c.inner
	}
	return c.materialize()
}

func (c *callContext) materialize() context.Context {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.state.Load() == ctxLive {
		return c.inner
	}
	c.inner, c.cancel = context.WithDeadline(c.parent, c.deadline)
	if !c.state.CompareAndSwap(ctxLazy, ctxLive) {
		// The call has returned: its context is over, as it would have
		// been had it been made up front and cancelled then.
		c.cancel()
		c.state.Store(ctxLive)
	}
	return c.inner
}

// end is called once, when the call returns: a handler still running (one
// that outlived its deadline) then sees its context cancelled.
func (c *callContext) end() {
	if c.state.CompareAndSwap(ctxLazy, ctxEnded) {
		return // never made; materialize will make it cancelled
	}
	c.cancel() // live: CompareAndSwap failed, so inner and cancel are set
}

// Deadline is the earlier of the call's deadline and the parent's.
func (c *callContext) Deadline() (time.Time, bool) {
	if d, ok := c.parent.Deadline(); ok && d.Before(c.deadline) {
		return d, true
	}
	return c.deadline, true
}

// Done makes the real context: only it can close a channel on time.
func (c *callContext) Done() <-chan struct{} { return c.current().Done() }

// Err answers without making the real context while nothing has ended:
// Done is then not closed either, which is what the contract asks.
func (c *callContext) Err() error {
	if c.state.Load() == ctxLazy && c.parent.Err() == nil && time.Until(c.deadline) > 0 {
		return nil
	}
	return c.current().Err()
}

// Value returns the call for callKey. Other keys go to the real context
// once it exists, so that context.Cause and contexts derived from this one
// find its cancellation; before that they go to the parent, which holds
// every value the real context would.
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
