package engine

import (
	"context"
	"sync"
	"time"
)

// A caller waits for its worker's answer with a plain channel receive, so
// that the worker's send hands the thread straight back to it. The
// deadline and the caller's context cannot join a select there; instead
// they ring the same channel, through a timer and context.AfterFunc, and
// the first message decides.
//
// A waiter is reused only when nothing else can arrive on its channel: the
// worker has answered, the timer was stopped before it rang and the
// context's AfterFunc before it ran. Otherwise it is left to the garbage
// collector with its late messages (the channel holds all three, so no
// sender ever blocks).
type waiter struct {
	ch      chan outcome
	timer   *time.Timer // rings at the deadline
	stopCtx func() bool // stops the ring on the caller's cancellation; nil if ctx cannot be cancelled
}

var waiters = sync.Pool{New: func() any { return newWaiter() }}

func newWaiter() *waiter {
	w := &waiter{ch: make(chan outcome, 3)} // an answer and two rings
	w.timer = time.AfterFunc(time.Hour, w.ring)
	w.timer.Stop()
	return w
}

func (w *waiter) ring() { w.ch <- outcome{alarm: true} }

// armWaiter returns a waiter that rings at deadline or when ctx is done.
func armWaiter(ctx context.Context, deadline time.Time) *waiter {
	w := waiters.Get().(*waiter)
	w.timer.Reset(time.Until(deadline))
	w.stopCtx = nil
	if ctx.Done() != nil {
		w.stopCtx = context.AfterFunc(ctx, w.ring)
	}
	return w
}

// release stops the rings after the worker answered, and pools the waiter
// if neither had started.
func (w *waiter) release() {
	if w.disarm() {
		waiters.Put(w)
	}
}

// disarm stops both rings and reports whether neither had started.
func (w *waiter) disarm() bool {
	clean := w.timer.Stop()
	if w.stopCtx != nil && !w.stopCtx() {
		clean = false
	}
	return clean
}

// answer returns the worker's answer if one is already queued behind the
// ring that woke the caller.
func (w *waiter) answer() (outcome, bool) {
	for range cap(w.ch) - 1 {
		select {
		case out := <-w.ch:
			if !out.alarm {
				return out, true
			}
		default:
			return outcome{}, false
		}
	}
	return outcome{}, false
}
