package vurb

import (
	"context"
	"fmt"
	"log/slog"
	"runtime/debug"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/engine"
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

// EventKind says what an Event reports.
type EventKind int

// The event kinds, in the order a call produces them.
const (
	// ToolRegistered: one wire tool was compiled, at Build.
	ToolRegistered = EventKind(engine.ToolRegistered)
	// CallStarted: a call reached its action, before decoding.
	CallStarted = EventKind(engine.CallStarted)
	// CallFinished: a call ended; Duration and Outcome say how.
	CallFinished = EventKind(engine.CallFinished)
	// CacheInvalidated: a successful call made earlier results stale;
	// Patterns lists which, Key is the cause.
	CacheInvalidated = EventKind(engine.CacheInvalidated)
	// HandlerOverdue: a call answered (timed out, or its caller went
	// away) while its handler, which ignores its context, runs on. The
	// handler still counts in HandlerStats.Running and now in Overdue.
	HandlerOverdue = EventKind(engine.HandlerOverdue)
	// HandlerReturned: an overdue handler returned at last; Duration is
	// how long after its deadline.
	HandlerReturned = EventKind(engine.HandlerReturned)
	// TaskInline: a call of an action that may run as a task ran without
	// one, its answer given at once, because the task store did not take
	// the task (the caller's share, or the store, was full, or the store
	// could not be reached). Name is the tool's wire name.
	TaskInline = EventKind(engine.TaskInline)
)

// String names the kind for logs.
func (k EventKind) String() string {
	switch k {
	case ToolRegistered:
		return "tool_registered"
	case CallStarted:
		return "call_started"
	case CallFinished:
		return "call_finished"
	case CacheInvalidated:
		return "cache_invalidated"
	case HandlerOverdue:
		return "handler_overdue"
	case HandlerReturned:
		return "handler_returned"
	case TaskInline:
		return "task_inline"
	}
	return "unknown"
}

// Outcome classifies how a call ended, for metrics and alerts.
type Outcome string

// The outcomes, as Event.Outcome reports them.
const (
	OutcomeOK         = Outcome(engine.OutcomeOK)         // a successful result
	OutcomeValidation = Outcome(engine.OutcomeValidation) // arguments refused (or no such action)
	OutcomeHandler    = Outcome(engine.OutcomeHandler)    // the handler or a middleware returned an error or an error result
	OutcomePanic      = Outcome(engine.OutcomePanic)      // the handler or a middleware panicked
	OutcomeTimeout    = Outcome(engine.OutcomeTimeout)    // the deadline passed
	OutcomeCancelled  = Outcome(engine.OutcomeCancelled)  // the caller went away
	// OutcomeInputRequired: the round ended asking the client for input
	// (see Ask); the client sends the request again with the answers.
	OutcomeInputRequired = Outcome(engine.OutcomeInputRequired)
	// OutcomeBusy: the call was refused before its handler ran, since
	// WithMaxRunning handlers were running.
	OutcomeBusy = Outcome(engine.OutcomeBusy)
	// OutcomeDenied: the call was refused before its arguments were read,
	// since the caller's token lacks a scope the action requires (see
	// RequireScopes).
	OutcomeDenied = Outcome(engine.OutcomeDenied)
	// OutcomeLimited: the call was refused before its handler ran by one
	// of its action's limits: a rate limit or the concurrency cap.
	OutcomeLimited = Outcome(engine.OutcomeLimited)
)

// Event is one observation. Fields that do not apply to its Kind are zero.
type Event struct {
	Kind      EventKind
	Time      time.Time
	Tool      string // authored tool name
	Action    string // action key within the tool
	Key       string // canonical dotted key
	Name      string // wire name
	RequestID string
	Duration  time.Duration // CallFinished; HandlerReturned: past the deadline
	Outcome   Outcome       // CallFinished
	Patterns  []string      // CacheInvalidated
}

// Observer receives events synchronously, on the calling goroutine: keep
// it fast, or hand events to a goroutine of your own.
type Observer func(ctx context.Context, e Event)

// eventOf is the engine's event as an Observer receives it.
func eventOf(e engine.Event) Event {
	return Event{Kind: EventKind(e.Kind), Time: e.Time, Tool: e.Tool, Action: e.Action, Key: e.Key, Name: e.Name,
		RequestID: e.RequestID, Duration: e.Duration, Outcome: Outcome(e.Outcome), Patterns: e.Patterns}
}

// WithObserver adds an observer to the app: each one given receives every
// event, in the order given, and a panicking one is contained alone (the
// panic is logged; the observers after it still receive the event).
// Without one a call pays a single nil check: no clock reads and no event
// values.
func WithObserver(o Observer) Option {
	return func(c *config) {
		if o != nil {
			c.observers = append(c.observers, o)
		}
	}
}

// SlogObserver returns an Observer that logs every event through logger:
// call ends at Info (Warn when they failed), the rest at Debug.
func SlogObserver(logger *slog.Logger) Observer {
	return func(ctx context.Context, e Event) {
		level := slog.LevelDebug
		attrs := []slog.Attr{slog.String("tool", e.Tool), slog.String("key", e.Key)}
		if e.RequestID != "" {
			attrs = append(attrs, slog.String("request_id", e.RequestID))
		}
		switch e.Kind {
		case CallFinished:
			level = slog.LevelInfo
			if e.Outcome != OutcomeOK {
				level = slog.LevelWarn
			}
			attrs = append(attrs, slog.Duration("duration", e.Duration), slog.String("outcome", string(e.Outcome)))
		case CacheInvalidated:
			attrs = append(attrs, slog.Any("patterns", e.Patterns))
		case ToolRegistered:
			attrs = append(attrs, slog.String("name", e.Name))
		case HandlerOverdue:
			level = slog.LevelWarn
		case HandlerReturned:
			level = slog.LevelInfo
			attrs = append(attrs, slog.Duration("late_by", e.Duration))
		}
		logger.LogAttrs(ctx, level, "vurb "+e.Kind.String(), attrs...)
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
