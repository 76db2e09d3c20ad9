package vurb

import (
	"context"
	"fmt"
	"maps"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/edge"
	"github.com/vurb-go/vurb/internal/edge/tasks"
	"github.com/vurb-go/vurb/store"
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
// which it is discarded. Tasks live in the app's store.Tasks (see
// WithTasks), which bounds them; cancelling a task whose call runs on
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
	app.tasks(true).Declare(a.canonicalKey(), tasks.TaskSpec{Required: spec.required, Deferred: spec.deferred, TTL: spec.ttl, Poll: spec.poll})
	app.advertiseTasks()
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
	return tasks.StartTask(ctx)
}

// SetTaskStatus sets the statusMessage of the task ctx runs in: progress a
// client reads with tasks/get ("3 of 10 files"). It returns an error
// wrapping ErrNoTask outside a task, store.ErrTaskNotFound once the task has
// expired, and, when the store fails, an error as StartTask's.
func SetTaskStatus(ctx context.Context, message string) error {
	return tasks.SetTaskStatus(ctx, message)
}

// TaskID returns the id of the task ctx runs in, and false outside a task.
func TaskID(ctx context.Context) (string, bool) {
	return tasks.TaskID(ctx)
}

// TasksExtension is the identifier of the MCP tasks extension.
const TasksExtension = "io.modelcontextprotocol/tasks"

// ErrNoTask is returned by StartTask, SetTaskStatus and TaskID outside a
// call that is or can become a task.
var ErrNoTask = edge.ErrNoTask

// TaskConfig is how an app serves its tasks (WithTasks). Zero
// fields keep the defaults.
type TaskConfig struct {
	// Store keeps the tasks. By default, the one the replicas share
	// (WithReplicas), else a store.NewMemoryTasks(store.DefaultMaxTasks)
	// of the app's own. Give replicas one store they share.
	Store store.Tasks
	// TTL is how long a task is kept from its creation (default one hour),
	// unless its action says otherwise (WithTaskTTL).
	TTL time.Duration
	// PollInterval is the polling interval suggested to clients
	// (default 1 s), unless the action says otherwise
	// (WithTaskPollInterval).
	PollInterval time.Duration
	// Lease is how long a running task is known to be running without
	// word from the replica running it (default 30 s), which renews
	// it every third of it: a task whose replica died or was cut from the
	// store reads as failed, saying so, on every replica once its lease
	// is over, instead of "working" until its TTL.
	Lease time.Duration
	// RetryFor bounds how long a replica retries writing a task's outcome
	// to a store that fails (default 10 min), keeping it in memory
	// meanwhile; within the task's TTL.
	RetryFor time.Duration
}

// tasks returns the app's task table, making it when create is set, or nil.
// The table is the app's own, made once under the app's lock and
// configured with WithTasks' TaskConfig: apps never share one, and no
// state outlives its app.
func (a *App) tasks(create bool) *tasks.TaskTable {
	a.taskMu.Lock()
	defer a.taskMu.Unlock()
	if a.taskTab == nil && create {
		a.taskTab = tasks.NewTaskTable()
		a.taskTab.Configure(tasks.TaskConfig(a.cfg.tasks))
	}
	return a.taskTab
}
