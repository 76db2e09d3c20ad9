package store

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"time"
)

// TaskStatus is where a task stands, as the MCP tasks extension
// (SEP-2663) names it.
type TaskStatus string

// The states of a task. Completed, Failed and Cancelled are terminal.
const (
	TaskWorking       TaskStatus = "working"
	TaskInputRequired TaskStatus = "input_required"
	TaskCompleted     TaskStatus = "completed"
	TaskFailed        TaskStatus = "failed"
	TaskCancelled     TaskStatus = "cancelled"
)

// Terminal reports whether s is final: a terminal task never changes again.
func (s TaskStatus) Terminal() bool {
	return s == TaskCompleted || s == TaskFailed || s == TaskCancelled
}

// Task is everything vurb keeps about one task: what the client reads
// (status, timestamps, the result or the error, the input it waits for)
// and what any replica needs to resume the call (the tool, its
// arguments, the client's revision and capabilities, the answers so far,
// the state sealed by the last round). It encodes to JSON as it is, so a
// shared store can keep it anywhere.
type Task struct {
	ID string `json:"id"`
	// Owner is the authenticated user who created the task, if any.
	Owner string `json:"owner,omitempty"`
	// Caller is whose quota the task counts against in a store: the
	// verified subject, else the HTTP client's host (its /64 over IPv6),
	// never a value the client chose.
	Caller        string     `json:"caller,omitempty"`
	Status        TaskStatus `json:"status"`
	StatusMessage string     `json:"statusMessage,omitempty"`
	CreatedAt     time.Time  `json:"createdAt"`
	UpdatedAt     time.Time  `json:"updatedAt"`
	// TTL counts from CreatedAt: the task is kept at least that long.
	TTL          time.Duration `json:"ttl"`
	PollInterval time.Duration `json:"pollInterval"`
	// LeaseUntil is when a working task's run is no longer vouched for:
	// the replica running it renews it; past it, the task reads as failed
	// (its replica stopped). Zero for a task no replica runs (waiting
	// for input, or done).
	LeaseUntil time.Time `json:"leaseUntil,omitzero"`

	// The call the task runs.
	Tool         string          `json:"tool"`
	Arguments    json.RawMessage `json:"arguments,omitempty"`
	Version      string          `json:"version"`
	Capabilities json.RawMessage `json:"capabilities,omitempty"`

	// InputRequests are the requests the task waits on, by key: each
	// leaves the map when the client answers it.
	InputRequests map[string]json.RawMessage `json:"inputRequests,omitempty"`
	// Answers are the client's answers so far, by key; RequestState is the
	// state the last round sealed. A resumed run gets both.
	Answers      map[string]json.RawMessage `json:"answers,omitempty"`
	RequestState string                     `json:"requestState,omitempty"`

	// Result is the CallToolResult of a completed task; Error the JSON-RPC
	// error of a failed one.
	Result json.RawMessage `json:"result,omitempty"`
	Error  json.RawMessage `json:"error,omitempty"`
}

// Expires is when the task may be discarded: CreatedAt plus TTL.
func (t *Task) Expires() time.Time { return t.CreatedAt.Add(t.TTL) }

// Clone returns a copy of t that shares nothing mutable with it.
func (t *Task) Clone() *Task {
	c := *t
	c.Arguments = slices.Clone(t.Arguments)
	c.Capabilities = slices.Clone(t.Capabilities)
	c.InputRequests = maps.Clone(t.InputRequests)
	c.Answers = maps.Clone(t.Answers)
	c.Result = slices.Clone(t.Result)
	c.Error = slices.Clone(t.Error)
	return &c
}

// Tasks keeps tasks. vurb uses one per app (a MemoryTasks unless
// vurb.TaskConfig or vurb.WithReplicas names another); a store shared by
// several replicas (a database, Redis) lets any of them answer for any
// task: every record holds what a replica needs to resume its call.
//
// A store must keep a task at least until its Expires time and may drop it
// after. Its methods are called from many goroutines at once.
//
// What a store's error says is for the server's log, not for the client:
// an error wrapping ErrTaskNotFound is told as an unknown task (to its
// owner alone, as expired or lost, as its id tells), one wrapping
// ErrTasksFull with its own text (say there how much of its share the
// caller holds, and nothing the caller must not know), and any other is
// logged, with the app's logger, while the client reads only "the task
// store is unavailable; retry later" (a JSON-RPC internal error).
type Tasks interface {
	// Create adds t, whose ID is new. It returns once Get finds it (the
	// extension requires the task to exist before the client hears of
	// it), or an error wrapping ErrTasksFull when the store holds all it
	// can, in all or for t.Caller.
	Create(ctx context.Context, t *Task) error
	// Get returns the task id, or an error wrapping ErrTaskNotFound when
	// there is none (or it has expired).
	Get(ctx context.Context, id string) (*Task, error)
	// Update changes the task id atomically: fn gets a copy to modify and
	// returns nil to keep the change, or an error to drop it, which Update
	// returns. Update returns the task as stored, or an error wrapping
	// ErrTaskNotFound.
	Update(ctx context.Context, id string, fn func(*Task) error) (*Task, error)
}

// What the methods of Tasks return, wrapped, when they cannot do what is
// asked.
var (
	// ErrTaskNotFound: no such task, or it has expired.
	ErrTaskNotFound = errors.New("vurb: task not found")
	// ErrTasksFull: the store holds as many live tasks, or bytes of
	// them, as it may, in all or for the task's caller.
	ErrTasksFull = errors.New("vurb: the task store is full")
)
