package tasks

import (
	"errors"
	"sync"
	"time"

	"github.com/vurb-go/vurb/internal/engine"
	"github.com/vurb-go/vurb/store"
)

// TasksExtension is vurb.TasksExtension; see its documentation there.
const TasksExtension = "io.modelcontextprotocol/tasks"

// Defaults of the tasks an app serves.
const (
	DefaultTaskTTL          = time.Hour
	DefaultTaskPollInterval = time.Second
)

// ErrNoTask is vurb.ErrNoTask; see its documentation there.
var ErrNoTask = errors.New("vurb: this call is not a task and cannot become one")

// TaskSpec is what an action's Task declared.
type TaskSpec struct {
	Required bool
	Deferred bool
	TTL      time.Duration // 0: the app's
	Poll     time.Duration // 0: the app's
}

// TaskConfig is vurb.TaskConfig; see its documentation there.
type TaskConfig struct {
	// Store keeps the tasks; store.NewMemoryTasks(store.DefaultMaxTasks) by
	// default. Give replicas one store they share.
	Store store.Tasks
	// TTL is how long a task is kept from its creation (DefaultTaskTTL).
	TTL time.Duration
	// PollInterval is the polling interval suggested to clients
	// (DefaultTaskPollInterval).
	PollInterval time.Duration
	// Lease is how long a running task is known to be running without
	// word from the replica running it (DefaultTaskLease), which renews
	// it every third of it: a task whose replica died or was cut from the
	// store reads as failed, saying so, on every replica once its lease
	// is over, instead of "working" until its TTL.
	Lease time.Duration
	// RetryFor bounds how long a replica retries writing a task's outcome
	// to a store that fails (DefaultTaskRetryFor), keeping it in memory
	// meanwhile; within the task's TTL.
	RetryFor time.Duration
}

// Defaults of TaskConfig's Lease and RetryFor.
const (
	DefaultTaskLease    = 30 * time.Second
	DefaultTaskRetryFor = 10 * time.Minute
)

// TaskTable is what an app declared about tasks: which actions are tasks
// and how the app serves them. An app makes its own (NewTaskTable) when
// its first action becomes a task: apps never share one.
type TaskTable struct {
	mu      sync.Mutex
	actions map[string]TaskSpec // by canonical key ("reports.build")
	config  TaskConfig
	Running *runningTasks
	shared  store.Tasks // the replicas' store, when TaskConfig names none
}

// NewTaskTable returns an empty table.
func NewTaskTable() *TaskTable {
	return &TaskTable{actions: map[string]TaskSpec{}, Running: &runningTasks{m: map[string]runningTask{}}}
}

// Declare records that the action of canonical key runs as a task.
func (t *TaskTable) Declare(key string, spec TaskSpec) {
	t.mu.Lock()
	t.actions[key] = spec
	t.mu.Unlock()
}

// Share makes store the table's store unless TaskConfig names one: the
// store the app's replicas share (WithReplicas).
func (t *TaskTable) Share(s store.Tasks) {
	t.mu.Lock()
	t.shared = s
	t.mu.Unlock()
}

// Configure sets how the app serves its tasks.
func (t *TaskTable) Configure(c TaskConfig) {
	t.mu.Lock()
	t.config = c
	t.mu.Unlock()
}

// Spec returns what the action of canonical key declared, if it is a task.
func (t *TaskTable) Spec(key string) (TaskSpec, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s, ok := t.actions[key]
	return s, ok
}

// taskRoutes returns, by wire name, the routes that run as tasks and how.
// A route reaching several actions (grouped exposition) runs as a task
// when all of them declared the same Task options.
func (t *TaskTable) taskRoutes(routes []engine.Route) map[string]taskRoute {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := map[string]taskRoute{}
	for _, r := range routes {
		var spec TaskSpec
		ok := true
		for i, ep := range r.Endpoints() {
			s, declared := t.actions[ep.Key()]
			if !declared || (i > 0 && s != spec) {
				ok = false
				break
			}
			spec = s
		}
		if ok && len(r.Endpoints()) > 0 {
			out[r.Wire().Name] = taskRoute{route: r, spec: spec}
		}
	}
	return out
}
