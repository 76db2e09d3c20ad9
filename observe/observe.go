// Package observe holds what an app's observers receive: one Event per
// step of a call (a tool compiled, a call started and finished, caches
// invalidated, an overdue handler, a task run at once), with the Outcome
// that classifies how a call ended. Give an Observer to vurb.WithObserver;
// Slog logs every event, and the otel module turns them into
// OpenTelemetry metrics. It stands apart from the root package because
// only code that watches calls (metrics, logs, alerts) reads it.
package observe

import (
	"context"
	"time"

	"github.com/vurb-go/vurb/internal/engine"
)

// Kind says what an Event reports.
type Kind int

// The event kinds, in the order a call produces them.
const (
	// ToolRegistered: one wire tool was compiled, at Build.
	ToolRegistered = Kind(engine.ToolRegistered)
	// CallStarted: a call reached its action, before decoding.
	CallStarted = Kind(engine.CallStarted)
	// CallFinished: a call ended; Duration and Outcome say how.
	CallFinished = Kind(engine.CallFinished)
	// CacheInvalidated: a successful call made earlier results stale;
	// Patterns lists which, Key is the cause.
	CacheInvalidated = Kind(engine.CacheInvalidated)
	// HandlerOverdue: a call answered (timed out, or its caller went
	// away) while its handler, which ignores its context, runs on. The
	// handler still counts in vurb.HandlerStats.Running and now in Overdue.
	HandlerOverdue = Kind(engine.HandlerOverdue)
	// HandlerReturned: an overdue handler returned at last; Duration is
	// how long after its deadline.
	HandlerReturned = Kind(engine.HandlerReturned)
	// TaskInline: a call of an action that may run as a task ran without
	// one, its answer given at once, because the task store did not take
	// the task (the caller's share, or the store, was full, or the store
	// could not be reached). Name is the tool's wire name.
	TaskInline = Kind(engine.TaskInline)
	// WorkflowMoved: a call started a workflow instance or moved it to
	// another state, once its handler succeeded and the move was kept
	// (package workflow). Workflow names the machine, From and To the
	// states (From "" for an instance started).
	WorkflowMoved = Kind(engine.WorkflowMoved)
)

// String names the kind for logs.
func (k Kind) String() string {
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
	case WorkflowMoved:
		return "workflow_moved"
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
	// (see vurb.Ask); the client sends the request again with the answers.
	OutcomeInputRequired = Outcome(engine.OutcomeInputRequired)
	// OutcomeBusy: the call was refused before its handler ran, since
	// vurb.WithMaxRunning handlers were running.
	OutcomeBusy = Outcome(engine.OutcomeBusy)
	// OutcomeDenied: the call was refused before its arguments were read,
	// since the caller's token lacks a scope the action requires (see
	// RequireScopes).
	OutcomeDenied = Outcome(engine.OutcomeDenied)
	// OutcomeLimited: the call was refused before its handler ran by one
	// of its action's limits: a rate limit or the concurrency cap.
	OutcomeLimited = Outcome(engine.OutcomeLimited)
	// OutcomeState: the workflow gate refused the call before its handler
	// ran: its instance was in a state the action does not run in, or
	// its handle was unknown or expired.
	OutcomeState = Outcome(engine.OutcomeState)
)

// Event is one observation. Fields that do not apply to its Kind are zero.
type Event struct {
	Kind      Kind
	Time      time.Time
	Tool      string // authored tool name
	Action    string // action key within the tool
	Key       string // canonical dotted key
	Name      string // wire name
	RequestID string
	Duration  time.Duration // CallFinished; HandlerReturned: past the deadline
	Outcome   Outcome       // CallFinished
	Patterns  []string      // CacheInvalidated
	// WorkflowMoved: the machine, and the states the instance moved
	// from ("" for one started) and to.
	Workflow, From, To string
}

// Observer receives events synchronously, on the calling goroutine: keep
// it fast, or hand events to a goroutine of your own.
type Observer func(ctx context.Context, e Event)
