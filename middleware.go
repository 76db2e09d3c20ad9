package vurb

import (
	"context"
	"fmt"
	"log/slog"
	"runtime/debug"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/engine"
	"github.com/vurb-go/vurb/observe"
)

// Handler is one step of a call's pipeline once its arguments are decoded
// and validated. Every action, whatever its types, is adapted to this one
// shape at definition, so middleware is written once and composed once.
type Handler func(ctx context.Context, call *Call) (*mcp.CallToolResult, error)

// Middleware wraps a Handler. It may act before and after next, replace the
// context it passes on (to hand values to inner layers), or return without
// calling next to short-circuit the call with its own result or error.
//
// Middleware is declared at four levels and runs outermost first: the app
// (App.Use), the tool (Tool.Use), the group (Group.Use) and the action
// (ActionDef.Use). Each action's chain is composed once, at Build; a call
// runs a single precomposed function, and views of the app (tag filters)
// reuse it: a middleware constructor runs once per action, never per call
// or per server.
type Middleware func(next Handler) Handler

// chain composes layers around h so that layers[0] runs first. It runs at
// build time only.
func chain(h Handler, layers []Middleware) Handler {
	for i := len(layers) - 1; i >= 0; i-- {
		h = layers[i](h)
	}
	return h
}

// lowerHandler hands a composed chain to the engine, whose calls are the
// same values under the engine's name for the type.
func lowerHandler(h Handler) engine.Handler {
	return func(ctx context.Context, c *engine.Call) (*mcp.CallToolResult, error) {
		return h(ctx, (*Call)(c))
	}
}

func checkMiddleware(level string, mw []Middleware) []Middleware {
	for i, m := range mw {
		if m == nil {
			panic(fmt.Sprintf("vurb: nil middleware at position %d of %s Use", i, level))
		}
	}
	return mw
}

// eventOf is the engine's event as an Observer receives it.
func eventOf(e engine.Event) observe.Event {
	return observe.Event{Kind: observe.Kind(e.Kind), Time: e.Time, Tool: e.Tool, Action: e.Action, Key: e.Key, Name: e.Name,
		RequestID: e.RequestID, Duration: e.Duration, Outcome: observe.Outcome(e.Outcome), Patterns: e.Patterns,
		Workflow: e.Workflow, From: e.From, To: e.To}
}

// containObservers is the engine's observer of observers: each receives
// every event in turn, its panic contained on its own, so that one
// panicking observer starves none after it.
func containObservers(observers []observe.Observer, logger *slog.Logger) engine.Observer {
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
func containObserver(obs observe.Observer, logger *slog.Logger) engine.Observer {
	return func(ctx context.Context, e engine.Event) {
		defer func() {
			if p := recover(); p != nil {
				logger.Error("vurb: observer panicked", "event", observe.Kind(e.Kind).String(),
					"request_id", e.RequestID, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			}
		}()
		obs(ctx, eventOf(e))
	}
}
