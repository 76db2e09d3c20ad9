package vurb

import (
	"context"
	"fmt"
	"maps"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/edge"
)

// Defaults of the tasks an app serves.
const (
	DefaultTaskTTL          = edge.DefaultTaskTTL
	DefaultTaskPollInterval = edge.DefaultTaskPollInterval
	// DefaultTaskLease is how long a running task is vouched for without
	// word from its replica (TaskConfig.Lease).
	DefaultTaskLease = edge.DefaultTaskLease
	// DefaultTaskRetryFor bounds the retries of a task's outcome while the
	// store fails (TaskConfig.RetryFor).
	DefaultTaskRetryFor = edge.DefaultTaskRetryFor
)

// TaskOption refines how an action runs as a task (see ActionDef.Task).
type TaskOption func(*taskSpec)

// taskSpec is what an action's Task declared.
type taskSpec struct {
	required bool
	deferred bool
	ttl      time.Duration // 0: the app's
	poll     time.Duration // 0: the app's
}

// WithTaskRequired makes the action task-only: a 2026-07-28 client that
// did not declare the tasks extension is refused with -32021 rather than
// served synchronously. Handshake-era clients, which cannot declare it,
// are still served synchronously.
func WithTaskRequired() TaskOption { return func(s *taskSpec) { s.required = true } }

// WithTaskDeferred lets the handler decide when the call becomes a task:
// it runs as an ordinary call (input requests are the request's own
// rounds, as in Ask) until it calls StartTask, and the client gets the
// task then. A handler that returns without calling it answers the call
// directly.
func WithTaskDeferred() TaskOption { return func(s *taskSpec) { s.deferred = true } }

// WithTaskTTL keeps the action's tasks for d from their creation (the
// ttlMs clients read) instead of the app's TTL.
func WithTaskTTL(d time.Duration) TaskOption { return func(s *taskSpec) { s.ttl = d } }

// WithTaskPollInterval suggests how often clients poll the action's tasks
// (pollIntervalMs) instead of the app's interval.
func WithTaskPollInterval(d time.Duration) TaskOption { return func(s *taskSpec) { s.poll = d } }

// Task declares the action long-running, served as a task of the MCP tasks
// extension (io.modelcontextprotocol/tasks, SEP-2663), and declares the
// extension in the server's capabilities. The handler does not change:
//
//	vurb.Action(app, "reports.build", buildReport).Task().Timeout(10 * time.Minute)
//
// A client that declares the extension in a request's capabilities gets,
// instead of the result, a task (resultType "task", a taskId), and polls
// tasks/get until the task is completed (the result inlined, isError
// included), failed (with the protocol error the handler returned, a
// *jsonrpc.Error) or cancelled (tasks/cancel cancels the handler's context).
//
// Input requests compose: a handler that asks with Ask while it runs as a
// task puts the task in input_required, the requests in tasks/get; the
// client answers with tasks/update, all at once or one at a time, and once
// nothing is outstanding the handler runs again with every answer, as a
// retried request does (see Ask; Carry works alike). With
// WithTaskDeferred, the handler gathers input through the request's own
// rounds first and turns the call into a task with StartTask. Progress notifications do not reach
// a task's client (the extension has none): report progress with
// SetTaskStatus, which clients read as the task's statusMessage.
//
// Tasks are served to 2026-07-28 requests over HTTP (HTTPHandler,
// ListenAndServe), with or without the fast lane. Handshake-era clients and
// stdio run the action as an ordinary call, and so does a 2026-07-28 client
// that did not declare the extension, unless the action is declared
// WithTaskRequired: that client gets the spec's -32021 error naming the
// extension. In grouped
// exposition a tool runs as a task when all its actions declare Task with
// the same options.
//
// A task runs under its action's deadline (Timeout; 30 s by default) and
// within its TTL (WithTaskTTL, else the app's: one hour by default), after
// which it is discarded. Tasks live in the app's TaskStore (see
// ConfigureTasks), which bounds them; cancelling a task whose call runs on
// another replica marks it cancelled at once, and that replica drops the
// call's result when it returns.
func (a *ActionDef) Task(opts ...TaskOption) *ActionDef {
	a.mustBeMutable()
	var spec taskSpec
	for _, opt := range opts {
		opt(&spec)
	}
	if spec.ttl < 0 || spec.poll < 0 {
		panic(fmt.Sprintf("vurb: action %q: a task's TTL and poll interval cannot be negative", a.canonicalKey()))
	}
	app := a.tool.app
	app.tasks(true).Declare(a.canonicalKey(), edge.TaskSpec{Required: spec.required, Deferred: spec.deferred, TTL: spec.ttl, Poll: spec.poll})
	app.advertiseTasks()
	return a
}

// ConfigureTasks sets how the app serves its tasks. Like every definition,
// it must come before the app is built.
func (a *App) ConfigureTasks(c TaskConfig) *App {
	a.mustBeMutable()
	a.tasks(true).Configure(c)
	return a
}

// advertiseTasks declares the extension in the capabilities of every
// server the app makes, on a copy of the ServerOptions the app was given.
func (a *App) advertiseTasks() {
	var so mcp.ServerOptions
	if a.cfg.serverOpts != nil {
		so = *a.cfg.serverOpts
	}
	caps := &mcp.ServerCapabilities{Logging: &mcp.LoggingCapabilities{}} // the go-sdk's default
	if so.Capabilities != nil {
		if _, done := so.Capabilities.Extensions[TasksExtension]; done {
			return
		}
		c := *so.Capabilities
		c.Extensions = maps.Clone(c.Extensions)
		caps = &c
	}
	caps.AddExtension(TasksExtension, nil)
	so.Capabilities = caps
	a.cfg.serverOpts = &so
}

// StartTask turns the call ctx belongs to into a task, for an action
// declared with WithTaskDeferred: the client gets the task now, and the
// handler goes on, its result becoming the task's. Everything asked with
// Ask before (the request's own rounds) is answered by then. It returns nil in a call
// that already is a task, and an error wrapping ErrNoTask (or the store's
// refusal) when the call cannot become one; the handler then goes on as an
// ordinary call. When the store fails, vurb logs its error and StartTask
// returns one that wraps it but reads only "the task store is
// unavailable; retry later", a JSON-RPC internal error to errors.As: the
// handler may return it as it is, and the client learns nothing the store
// said.
func StartTask(ctx context.Context) error {
	return edge.StartTask(ctx)
}

// SetTaskStatus sets the statusMessage of the task ctx runs in: progress a
// client reads with tasks/get ("3 of 10 files"). It returns an error
// wrapping ErrNoTask outside a task, ErrTaskNotFound once the task has
// expired, and, when the store fails, an error as StartTask's.
func SetTaskStatus(ctx context.Context, message string) error {
	return edge.SetTaskStatus(ctx, message)
}

// TaskID returns the id of the task ctx runs in, and false outside a task.
func TaskID(ctx context.Context) (string, bool) {
	return edge.TaskID(ctx)
}

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
// a live one early. A caller (TaskRecord.Caller: a verified subject, else
// an HTTP client's host) holds at most its share, so that one caller
// filling the store refuses nobody but itself. Finished tasks never keep
// their caller from running more: when its share is full, its own oldest
// finished task goes, before its TTL, to make room; only unfinished tasks
// make it refuse. Behind a load balancer, use a store every replica
// shares.
type MemoryTaskStore = edge.MemoryTaskStore

// A MemoryTaskStoreOption sets a bound of NewMemoryTaskStore.
type MemoryTaskStoreOption = edge.MemoryTaskStoreOption

// TaskCallerShare is the default share of one caller in a task store that
// holds at most maxTasks tasks and maxBytes bytes: a sixteenth of each
// (DefaultTaskCallerShare), but at least 16 tasks and 1 MiB where the
// store has them, so a small store is not cut in sixteen. Stores of your
// own apply it as NewMemoryTaskStore does.
func TaskCallerShare(maxTasks int, maxBytes int64) (tasks int, bytes int64) {
	return edge.TaskCallerShare(maxTasks, maxBytes)
}

// WithTaskStoreMaxBytes bounds the bytes of records a NewMemoryTaskStore
// keeps (default DefaultMaxTaskBytes).
func WithTaskStoreMaxBytes(n int64) MemoryTaskStoreOption { return edge.TaskStoreMaxBytes(n) }

// WithTaskStorePerCaller bounds the tasks and the bytes one caller may
// hold at once in a NewMemoryTaskStore (default: a sixteenth of the
// store's, DefaultTaskCallerShare, but at least 16 tasks and 1 MiB when
// the store has them); the caller's finished tasks give way to its new
// ones. Zero keeps a default.
func WithTaskStorePerCaller(tasks int, bytes int64) MemoryTaskStoreOption {
	return edge.TaskStorePerCaller(tasks, bytes)
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
//
// What a store's error says is for the server's log, not for the client:
// an error wrapping ErrTaskNotFound is told as an unknown task (to its
// owner alone, as expired or lost, as its id tells), one
// wrapping ErrTaskStoreFull with its own text (say there how much of its
// share the caller holds, and nothing the caller must not know), and any
// other is logged, with the app's logger, while the client reads only
// "the task store is unavailable; retry later" (a JSON-RPC internal
// error).
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
