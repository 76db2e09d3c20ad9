package edge

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"time"
)

// TaskStatus is vurb.TaskStatus; see its documentation there.
type TaskStatus string

// The statuses of a task. Completed, Failed and Cancelled are terminal.
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

// TaskRecord is vurb.TaskRecord; see its documentation there.
type TaskRecord struct {
	ID    string `json:"id"`
	Owner string `json:"owner,omitempty"` // the authenticated user who created it, if any
	// Caller is whose quota the task counts against in a store: the
	// verified subject, else the HTTP client's host (its /64 over IPv6),
	// never a value the client chose.
	Caller        string        `json:"caller,omitempty"`
	Status        TaskStatus    `json:"status"`
	StatusMessage string        `json:"statusMessage,omitempty"`
	CreatedAt     time.Time     `json:"createdAt"`
	UpdatedAt     time.Time     `json:"updatedAt"`
	TTL           time.Duration `json:"ttl"` // from CreatedAt; the task is kept at least that long
	PollInterval  time.Duration `json:"pollInterval"`
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

// Expires is when the task may be discarded.
func (t *TaskRecord) Expires() time.Time { return t.CreatedAt.Add(t.TTL) }

// Clone returns a copy of t that shares nothing mutable with it.
func (t *TaskRecord) Clone() *TaskRecord {
	c := *t
	c.Arguments = slices.Clone(t.Arguments)
	c.Capabilities = slices.Clone(t.Capabilities)
	c.InputRequests = maps.Clone(t.InputRequests)
	c.Answers = maps.Clone(t.Answers)
	c.Result = slices.Clone(t.Result)
	c.Error = slices.Clone(t.Error)
	return &c
}

// TaskStore is vurb.TaskStore; see its documentation there.
type TaskStore interface {
	// Create adds t, whose ID is new. It returns once Get finds it (the
	// extension requires the task to exist before the client hears of
	// it), or ErrTaskStoreFull when the store holds all it can.
	Create(ctx context.Context, t *TaskRecord) error
	// Get returns the task id, or an error wrapping ErrTaskNotFound when
	// there is none (or it has expired).
	Get(ctx context.Context, id string) (*TaskRecord, error)
	// Update changes the task id atomically: fn gets a copy to modify and
	// returns nil to keep the change, or an error to drop it, which Update
	// returns. Update returns the task as stored, or an error wrapping
	// ErrTaskNotFound.
	Update(ctx context.Context, id string, fn func(*TaskRecord) error) (*TaskRecord, error)
}

// The refusals of a TaskStore.
var (
	// ErrTaskNotFound: no such task, or it has expired.
	ErrTaskNotFound = errors.New("vurb: task not found")
	// ErrTaskStoreFull: the store holds as many live tasks as it may.
	ErrTaskStoreFull = errors.New("vurb: the task store is full")
)
