package vurb

import (
	"context"
	"fmt"
	"log/slog"
	"runtime/debug"

	"github.com/vurb-go/vurb/internal/engine"
)

// DefaultMaxRunning bounds the handlers an app runs at once, by default.
// A handler that ignores its context runs on after its call has answered
// with a timeout; 2,000 such calls once left 2,294 goroutines behind,
// unseen. Past the bound a call is refused at once with a "busy" error
// result that tells the model to retry.
const DefaultMaxRunning = 10_000

// WithMaxRunning bounds the handlers running at once across the app
// (default DefaultMaxRunning), counting those still running after their
// call timed out. A call past the bound gets a tool error saying the
// server is busy, before its handler runs; n < 0 removes the bound.
func WithMaxRunning(n int) Option {
	return func(c *config) {
		if n != 0 {
			c.maxRunning = n
		}
	}
}

// WithMaxRunningPerAction bounds the handlers running at once for each
// action (no bound by default), so that one slow action cannot take the
// whole of WithMaxRunning from the others.
func WithMaxRunningPerAction(n int) Option {
	return func(c *config) { c.maxRunningPerAction = n }
}

// HandlerStats is a snapshot of the app's handler gauges.
type HandlerStats struct {
	// Running is the handlers running now, the overdue ones included.
	Running int
	// Overdue is the handlers still running after their call was answered
	// (it timed out or its caller went away): handlers that ignore their
	// context. The observer sees each one start (HandlerOverdue) and end
	// (HandlerReturned).
	Overdue int
}

// HandlerStats reads the app's handler gauges, for metrics and health
// checks. It builds the app if needed.
func (a *App) HandlerStats() HandlerStats {
	h := a.built().Runtime().Handlers()
	return HandlerStats{Running: int(h.Running), Overdue: int(h.Overdue)}
}

// limitRuntime sets the handler bounds of rt from the options.
func (c *config) limitRuntime(rt *engine.Runtime) {
	if c.maxRunning > 0 {
		rt.MaxRunning = int64(c.maxRunning)
	}
	if c.maxRunningPerAction > 0 {
		rt.MaxRunningPerAction = int64(c.maxRunningPerAction)
	}
	rt.RateStore = c.rateStore
	if rt.RateStore == nil {
		rt.RateStore = NewMemoryRateStore(0)
	}
}

// containObservers is the engine's observer of observers: each receives
// every event in turn, its panic contained on its own, so that one
// panicking observer starves none after it.
func containObservers(observers []Observer, logger *slog.Logger) engine.Observer {
	if len(observers) == 1 {
		return containObserver(observers[0], logger)
	}
	each := make([]engine.Observer, len(observers))
	for i, o := range observers {
		each[i] = containObserver(o, logger)
	}
	return func(ctx context.Context, e engine.Event) {
		for _, o := range each {
			o(ctx, e)
		}
	}
}

// containObserver runs obs so that its panic is logged, with its stack,
// and goes no further: an observer watches calls, it cannot fail one.
func containObserver(obs Observer, logger *slog.Logger) engine.Observer {
	return func(ctx context.Context, e engine.Event) {
		defer func() {
			if p := recover(); p != nil {
				logger.Error("vurb: observer panicked", "event", EventKind(e.Kind).String(),
					"request_id", e.RequestID, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			}
		}()
		obs(ctx, eventOf(e))
	}
}
