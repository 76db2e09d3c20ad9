package engine

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/vurb-go/vurb/describe"
	"github.com/vurb-go/vurb/schema"
	"github.com/vurb-go/vurb/store"
)

// Runtime is what every call of one plan shares: fixed at Compile, read
// without locks. It belongs to its plan; two apps never share one.
type Runtime struct {
	Logger   *slog.Logger
	Observer Observer // nil: no events, and a call pays one nil check
	// Validator is the app's: the codecs of what a call asks the client
	// for (Ask) are built with it, as the tools' are.
	Validator *schema.Validator
	// Decode carries the argument limits and the schema messages.
	Decode   schema.DecodeOptions
	Messages Messages
	// Inline runs handlers on the caller's goroutine (see Endpoint.exec).
	Inline bool
	// Describer writes the tools' descriptions at build time; its nil
	// functions are describe.Default's.
	Describer describe.Describer
	// Sealer protects the state of multi-round-trip requests.
	Sealer *Sealer
	// Clock reads the time for request state; nil means time.Now.
	Clock func() time.Time
	// MaxRunning bounds the handlers running at once across the plan,
	// counting those that outlived their deadline; past it a call is
	// answered Messages.Busy (0: no bound). See limit.go.
	MaxRunning int64
	// LogAttrs, when set, adds attributes read from the context a call
	// arrived with to the call's logger (a trace id, a span id).
	LogAttrs func(context.Context) []slog.Attr
	// Scopes are the app's own required scopes: every prompt and resource
	// needs them too (actions carry theirs in ActionSpec.Scopes).
	Scopes []string
	// RateStore keeps the buckets of the actions' rate limits (see
	// limit_rate.go); it must be set when an action has one.
	RateStore RateStore
	// Workflows keeps the instances of the app's workflows (gate.go); it
	// must be set when an action is bound to one.
	Workflows store.Workflows

	ids     atomic.Uint64 // request ids, one sequence per plan
	running atomic.Int64  // handlers running, late ones included
	overdue atomic.Int64  // handlers running past their call's end
	cutting atomic.Int32  // servers whose shutdown grace is over (see CutCalls)
	calls   runningCalls  // the calls running now, for CutCalls
	watches sync.Pool     // *watch: deadline timers stopped in time, for the next watched call
	// refs say how a model calls each action, by canonical key, under the
	// plan's exposition (see Call.Refer). Written once, at Compile.
	refs map[string]string
	// flows are the routed endpoints bound to each workflow, by machine
	// name: the way on a refusal names. handles seals the instances'
	// handles; sessions names the sessions that have no id. Set at Compile.
	flows        map[string][]*Endpoint
	sessionFlows []*FlowMachine // the machines keyed by session
	handles      Handles
	sessions     sessionNames
	sessionMoved atomic.Pointer[func(*Origin)] // OnSessionMoved
}

// Messages are the texts a model reads when a call fails in the engine.
// Each says what went wrong and what the model can do; format verbs are
// those of the root package's documented variables.
type Messages struct {
	UnknownTool            string // %q: the name
	DiscriminatorMissing   string // the field, the available actions
	DiscriminatorNotString string // the field, the JSON kind, the available actions
	UnknownAction          string // %q: the action, the available actions
	InvalidArguments       string // the problems
	Timeout                string // the deadline
	Internal               string // the reference
	Busy                   string // the bound reached
	MissingScopes          string // the scopes missing, space-separated
	RateLimited            string // the rate, when to retry (see limit_rate.go)
	AtCapacity             string // the cap, the wait (see limit_concurrency.go)
	Truncated              string // the bytes kept, the bytes in all (see limit_output.go)
}

// EventKind says what an Event reports.
type EventKind int

// The event kinds, in the order a call produces them.
const (
	ToolRegistered EventKind = iota + 1
	CallStarted
	CallFinished
	CacheInvalidated
	HandlerOverdue
	HandlerReturned
	TaskInline
	// WorkflowMoved: a call started a workflow instance or moved it to
	// another state (Event.Workflow, From, To).
	WorkflowMoved
)

// Outcome classifies how a call ended.
type Outcome string

// The outcomes.
const (
	OutcomeOK         Outcome = "none"
	OutcomeValidation Outcome = "validation"
	OutcomeHandler    Outcome = "handler"
	OutcomePanic      Outcome = "panic"
	OutcomeTimeout    Outcome = "timeout"
	OutcomeCancelled  Outcome = "cancelled"
	// OutcomeInputRequired: the round ended asking the client for input.
	OutcomeInputRequired Outcome = "input_required"
	// OutcomeBusy: the call was refused, too many handlers were running.
	OutcomeBusy Outcome = "busy"
	// OutcomeDenied: the caller's token lacks a scope the action requires.
	OutcomeDenied Outcome = "denied"
	// OutcomeState: the workflow gate refused the call, before its
	// handler ran: its instance is in a state the action is not allowed
	// in, or its handle is unknown or expired (gate.go).
	OutcomeState Outcome = "state"
	// OutcomeLimited: the call was refused by one of its action's limits,
	// a rate limit or its concurrency cap (see limits.go).
	OutcomeLimited Outcome = "limited"
)

// Event is one observation; fields that do not apply to its Kind are zero.
type Event struct {
	Kind      EventKind
	Time      time.Time
	Tool      string
	Action    string
	Key       string
	Name      string
	RequestID string
	Duration  time.Duration
	Outcome   Outcome
	Patterns  []string
	// Workflow, From and To are a WorkflowMoved's machine and states
	// (From "" for an instance started).
	Workflow, From, To string
}

// Observer receives events synchronously, on the calling goroutine.
type Observer func(ctx context.Context, e Event)

func (rt *Runtime) now() time.Time {
	if rt.Clock != nil {
		return rt.Clock()
	}
	return time.Now()
}
