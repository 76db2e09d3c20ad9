package vurb

import "github.com/vurb-go/vurb/internal/edge"

// DefaultMaxTasks is how many live tasks NewMemoryTaskStore keeps when not
// told otherwise.
const DefaultMaxTasks = edge.DefaultMaxTasks

// DefaultMaxTaskBytes is how many bytes of records (arguments, results,
// answers, state) NewMemoryTaskStore keeps when not told otherwise.
const DefaultMaxTaskBytes = edge.DefaultMaxTaskBytes

// DefaultTaskCallerShare is the part of a MemoryTaskStore's tasks and bytes
// one caller may hold when not told otherwise: a sixteenth.
const DefaultTaskCallerShare = edge.DefaultTaskCallerShare

// MemoryTaskStore is the TaskStore of one process: a map under a lock,
// bounded in tasks and in bytes, in all and per caller. Every task goes
// after its TTL (Get and Update no longer find it; the space is reclaimed
// when room is needed), and the store never holds more than its bounds:
// Create refuses a task beyond them with ErrTaskStoreFull rather than drop
// a live one early, which the extension forbids. A caller (TaskRecord.Caller:
// a verified subject, else an HTTP client's host) holds at most its share,
// so that one caller filling the store refuses nobody but itself. Behind a
// load balancer, use a store every replica shares.
type MemoryTaskStore = edge.MemoryTaskStore

// A MemoryTaskStoreOption sets a bound of NewMemoryTaskStore.
type MemoryTaskStoreOption = edge.MemoryTaskStoreOption

// WithTaskStoreMaxBytes bounds the bytes of records a NewMemoryTaskStore
// keeps (default DefaultMaxTaskBytes).
func WithTaskStoreMaxBytes(n int64) MemoryTaskStoreOption { return edge.TaskStoreMaxBytes(n) }

// WithTaskStorePerCaller bounds the tasks and the bytes one caller may
// hold at once in a NewMemoryTaskStore (default: a sixteenth of the
// store's, DefaultTaskCallerShare, but at least 16 tasks and 1 MiB when
// the store has them). Zero keeps a default.
func WithTaskStorePerCaller(tasks int, bytes int64) MemoryTaskStoreOption {
	return edge.TaskStorePerCaller(tasks, bytes)
}

// TaskStoreMaxBytes is WithTaskStoreMaxBytes.
//
// Deprecated: use WithTaskStoreMaxBytes, named as every option is.
func TaskStoreMaxBytes(n int64) MemoryTaskStoreOption { return WithTaskStoreMaxBytes(n) }

// TaskStorePerCaller is WithTaskStorePerCaller.
//
// Deprecated: use WithTaskStorePerCaller, named as every option is.
func TaskStorePerCaller(tasks int, bytes int64) MemoryTaskStoreOption {
	return WithTaskStorePerCaller(tasks, bytes)
}

// NewMemoryTaskStore returns a store that keeps at most maxTasks live tasks
// (DefaultMaxTasks when maxTasks <= 0), within the bounds opts set.
func NewMemoryTaskStore(maxTasks int, opts ...MemoryTaskStoreOption) *MemoryTaskStore {
	return edge.NewMemoryTaskStore(maxTasks, opts...)
}

// TaskStatus is where a task stands, as the tasks extension names it.
type TaskStatus = edge.TaskStatus

// TaskRecord is everything vurb keeps about one task: what the client
// reads (status, timestamps, the result or the error, the input it waits
// for) and what any replica needs to resume the call (the tool, its
// arguments, the client's revision and capabilities, the answers so far,
// the state sealed by the last round). It encodes to JSON as it is, so a
// shared store can keep it anywhere.
type TaskRecord = edge.TaskRecord

// TaskStore keeps tasks. vurb uses one per app (NewMemoryTaskStore unless
// ConfigureTasks names another); a store shared by several replicas (a
// database, Redis) lets any of them answer for any task: every record holds
// what a replica needs to resume its call.
//
// A store must keep a task at least until its Expires time and may drop it
// after. Its methods are called from many goroutines at once.
type TaskStore = edge.TaskStore

// TasksExtension is the identifier of the MCP tasks extension.
const TasksExtension = edge.TasksExtension

// ErrNoTask is returned by StartTask, SetTaskStatus and TaskID outside a
// call that is or can become a task.
var ErrNoTask = edge.ErrNoTask

// TaskConfig is how an app serves its tasks. Zero fields keep the defaults.
type TaskConfig = edge.TaskConfig

// The states of a task (SEP-2663).
const (
	TaskWorking       = edge.TaskWorking
	TaskInputRequired = edge.TaskInputRequired
	TaskCompleted     = edge.TaskCompleted
	TaskFailed        = edge.TaskFailed
	TaskCancelled     = edge.TaskCancelled
)

// What a TaskStore's methods return when they cannot do what is asked.
var (
	// ErrTaskNotFound: no such task, or it has expired.
	ErrTaskNotFound = edge.ErrTaskNotFound
	// ErrTaskStoreFull: the store holds as many live tasks as it may.
	ErrTaskStoreFull = edge.ErrTaskStoreFull
)

// tasks returns the app's task table, making it when create is set, or nil.
// The table is the app's own, made once under the app's lock: apps never
// share one, and no state outlives its app.
func (a *App) tasks(create bool) *edge.TaskTable {
	a.taskMu.Lock()
	defer a.taskMu.Unlock()
	if a.taskTab == nil && create {
		a.taskTab = edge.NewTaskTable()
	}
	return a.taskTab
}
