package engine

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"
)

// callContext is the context a call's middleware and handler receive: a
// context.WithDeadline of the caller's, which also carries the Call, so
// that no separate context.WithValue is made for it.
//
// It used to make the context.WithDeadline lazily, only when something
// asked for Done or for Err past the deadline: that saved allocations and
// time of an in-process call, but nothing the served benchmark
// could tell apart from its noise (bench/README.md, "What each hot-path
// mechanism buys a served call"), so the plain context stayed.
type callContext struct {
	context.Context // context.WithDeadline(parent, deadline)
	cancel          context.CancelFunc
	parent          context.Context
	deadline        time.Time
	call            Call
	logger          atomic.Pointer[slog.Logger] // the call's, see Call.Logger
	round           Round                       // the call's, see RoundFrom
	fate            atomic.Uint32               // the handler's, see limit.go
	cutAt           atomic.Bool                 // the shutdown cut it (see cut.go)
	// A watched call's (watched.go): its watch, whether that fired and is
	// on, who claimed the answer, and the watch answering.
	fire     func()
	fired    atomic.Bool
	watching atomic.Bool
	claim    atomic.Uint32
	watch    sync.WaitGroup
}

// newCallContext returns the context of a call with the given deadline;
// the caller fills in its call in place (a Call holds an atomic and is
// never copied) and calls end once the call returns.
func newCallContext(parent context.Context, deadline time.Time) *callContext {
	c := &callContext{parent: parent, deadline: deadline}
	c.Context, c.cancel = context.WithDeadline(parent, deadline)
	c.call.parent = parent
	c.call.logger = &c.logger
	c.call.round = &c.round
	return c
}

// end is called once, when the call returns: a handler still running (one
// that outlived its deadline) then sees its context cancelled.
func (c *callContext) end() { c.cancel() }

// Value returns the call for callKey, and what the deadline's context
// holds for any other key.
func (c *callContext) Value(key any) any {
	if key == (callKey{}) {
		return &c.call
	}
	return c.Context.Value(key)
}

// String names the context in panics and debug output.
func (c *callContext) String() string {
	return "vurb.callContext(" + c.call.Key + ")"
}
