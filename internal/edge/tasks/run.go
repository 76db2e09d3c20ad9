package tasks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/edge/fault"
	"github.com/vurb-go/vurb/internal/edge/inflight"
	"github.com/vurb-go/vurb/internal/edge/wire"
	"github.com/vurb-go/vurb/internal/engine"
	"github.com/vurb-go/vurb/store"
)

// taskServer creates an app's tasks, runs their calls and records how each
// run ends. The calls of tasks it started run in this process; their state
// is in the store, where another replica sharing it finds them.
type taskServer struct {
	store    store.Tasks
	routes   map[string]taskRoute // by wire name
	ttl      time.Duration
	poll     time.Duration
	caps     *wire.CapsCache
	logger   *slog.Logger
	rt       *engine.Runtime // the plan's: what a panic is answered with (panicked)
	now      func() time.Time
	sealer   *engine.Sealer // tags the task ids (see id.go)
	lease    time.Duration  // see TaskConfig.Lease
	retryFor time.Duration  // see TaskConfig.RetryFor
	observer engine.Observer

	running *runningTasks
	// health, with replicas, tells whether the shared store has just lost
	// its data (a task it lacks may then be saved again soon).
	health storeWatch
	// views, when not nil, give each caller its own view of the routes
	// (WithVisibility): a task is started only over what its caller sees.
	views viewer // nil: the app has no per-caller views
}

// runningTasks are the runs of an app's tasks in this process, by task:
// every HTTP handler of the app shares them, so any can cancel any. A
// shutdown waits for them (wait) and, when its grace ends, cuts them.
type runningTasks struct {
	mu   sync.Mutex
	m    map[string]runningTask
	idle inflight.Drained // when m empties
	// cutting is set once a shutdown's grace is over: a task interrupted
	// then fails saying so.
	cutting atomic.Bool
	// stopRenewing ends the renewal of the leases of the tasks in m;
	// nil while none runs.
	stopRenewing context.CancelFunc
}

// Wait returns when no task runs in this process, or when ctx is done.
func (r *runningTasks) Wait(ctx context.Context) {
	r.mu.Lock()
	if len(r.m) == 0 {
		r.mu.Unlock()
		return
	}
	idle := r.idle.Next()
	r.mu.Unlock()
	select {
	case <-idle:
	case <-ctx.Done():
	}
}

// Cut interrupts every task running in this process: each fails saying the
// shutdown interrupted it (see settle), and is logged once with its id.
func (r *runningTasks) Cut() int {
	r.cutting.Store(true)
	r.mu.Lock()
	cancels := make([]context.CancelFunc, 0, len(r.m))
	for _, run := range r.m {
		cancels = append(cancels, run.cancel)
	}
	r.mu.Unlock()
	for _, cancel := range cancels {
		cancel()
	}
	return len(cancels)
}

// taskRoute is a route that runs as a task, and how.
type taskRoute struct {
	route engine.Route
	spec  TaskSpec
}

// newTaskServer returns the task server of routes, or nil when none of
// them runs as a task.
func newTaskServer(t *TaskTable, routes []engine.Route, rt *engine.Runtime, logger *slog.Logger) *taskServer {
	if t == nil {
		return nil
	}
	tr := t.taskRoutes(routes)
	if len(tr) == 0 {
		return nil
	}
	t.mu.Lock()
	if t.config.Store == nil { // made once, under the lock: every handler of the app shares it
		t.config.Store = t.shared
	}
	if t.config.Store == nil {
		t.config.Store = store.NewMemoryTasks(store.DefaultMaxTasks)
	}
	cfg := t.config
	t.mu.Unlock()
	return &taskServer{store: cfg.Store, routes: tr, ttl: positive(cfg.TTL, DefaultTaskTTL),
		poll: positive(cfg.PollInterval, DefaultTaskPollInterval), caps: &wire.CapsCache{}, logger: logger,
		now: time.Now, running: t.Running, sealer: rt.Sealer,
		lease: positive(cfg.Lease, DefaultTaskLease), retryFor: positive(cfg.RetryFor, DefaultTaskRetryFor),
		observer: rt.Observer, rt: rt}
}

func positive(d, otherwise time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return otherwise
}

// taskCall is a call that becomes a task: what its record is made from.
type taskCall struct {
	tool    string
	args    json.RawMessage
	version string
	caps    json.RawMessage
	answers map[string]json.RawMessage // the inputResponses the request carried
	state   string
	owner   string
	caller  string // whose quota the task counts against (see limit.CallerBucket)
}

// execution is one run of a task's call: the first, which may become a
// task on the way (WithTaskDeferred), or a resumed one. Handlers find it in
// their context.
type execution struct {
	s      *taskServer
	route  taskRoute
	call   *taskCall // nil when resumed
	ctx    context.Context
	cancel context.CancelFunc

	mu       sync.Mutex
	rec      *store.Task   // once the task exists
	started  chan struct{} // closed when it does
	finished bool          // the call returned, or its client left, before it became a task
}

type executionKey struct{}

func executionFrom(ctx context.Context) *execution {
	e, _ := ctx.Value(executionKey{}).(*execution)
	return e
}

// newExecution returns a run of tr detached from base's cancellation (a
// task outlives its request) but bounded by deadline.
func (s *taskServer) newExecution(base context.Context, tr taskRoute, call *taskCall, deadline time.Time) *execution {
	ctx, cancel := context.WithDeadline(context.WithoutCancel(base), deadline)
	e := &execution{s: s, route: tr, call: call, cancel: cancel, started: make(chan struct{})}
	e.ctx = context.WithValue(ctx, executionKey{}, e)
	return e
}

// start creates the task, once; the client may hear of it from then on.
// A store that fails is logged, and its error reads as unavailable
// (storeFailure): the handler calling StartTask may return it as it is.
func (e *execution) start() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	switch {
	case e.rec != nil:
		return nil
	case e.finished || e.call == nil:
		return fmt.Errorf("%w: the call has returned", ErrNoTask)
	}
	rec := e.s.newRecord(e.call, e.route.spec)
	if err := e.s.store.Create(e.ctx, rec); err != nil {
		if errors.Is(err, store.ErrTasksFull) {
			return err
		}
		return e.s.storeFailed("create", rec.ID, err)
	}
	e.rec = rec
	e.s.track(rec, e.cancel)
	close(e.started)
	return nil
}

// finish marks the run as over before it became a task, and reports
// whether it had become one.
func (e *execution) finish() (task bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.rec == nil {
		e.finished = true
	}
	return e.rec != nil
}

// record returns the task as created, or nil before.
func (e *execution) record() *store.Task {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.rec
}

func (e *execution) taskID() string {
	if rec := e.record(); rec != nil {
		return rec.ID
	}
	return ""
}

// setStatus sets the task's status message. A store that fails is
// logged, and its error reads as unavailable, as in start.
func (e *execution) setStatus(message string) error {
	id := e.taskID()
	if id == "" {
		return ErrNoTask
	}
	_, err := e.s.store.Update(context.WithoutCancel(e.ctx), id, func(t *store.Task) error {
		if t.Status.Terminal() {
			return errTaskUnchanged
		}
		t.StatusMessage, t.UpdatedAt = message, e.s.now().UTC()
		return nil
	})
	switch {
	case err == nil, errors.Is(err, errTaskUnchanged):
		return nil
	case errors.Is(err, store.ErrTaskNotFound): // expired: the store's words are not the handler's to pass on
		return store.ErrTaskNotFound
	case errors.Is(err, store.ErrTasksFull):
		return err
	}
	return e.s.storeFailed("set status", id, err)
}

// errTaskUnchanged leaves a record as it was.
var errTaskUnchanged = errors.New("vurb: task unchanged")

// newRecord is the record of a new task of call.
func (s *taskServer) newRecord(call *taskCall, spec TaskSpec) *store.Task {
	now := s.now().UTC()
	ttl := positive(spec.TTL, s.ttl)
	return &store.Task{ID: newTaskID(s.sealer, now.Add(ttl), call.owner), Owner: call.owner, Caller: call.caller, Status: store.TaskWorking, CreatedAt: now, UpdatedAt: now,
		LeaseUntil: now.Add(s.lease),
		TTL:        positive(spec.TTL, s.ttl), PollInterval: positive(spec.Poll, s.poll),
		Tool: call.tool, Arguments: call.args, Version: call.version, Capabilities: call.caps,
		Answers: call.answers, RequestState: call.state}
}

// callOutcome is how a call that never became a task ended.
type callOutcome struct {
	res *mcp.CallToolResult
	err error
}

// launch runs e's call on its own goroutine. If the call is a task by the
// time it returns, the outcome goes to the task; otherwise to the channel.
func (e *execution) launch(args json.RawMessage, o engine.Origin) <-chan callOutcome {
	done := make(chan callOutcome, 1)
	go func() {
		res, err := e.run(args, &o)
		if !e.finish() {
			done <- callOutcome{res, err}
			return
		}
		id := e.taskID()
		e.s.settleUntilStored(id, res, err, e.record().Expires())
		e.s.untrack(id)
		e.cancel()
	}()
	return done
}

// run runs e's route, answering a panic outside the handler (the engine
// contains the handler's own) as every path does (panicked): the task's
// goroutine is vurb's, and a panic that left it would end the process.
func (e *execution) run(args json.RawMessage, o *engine.Origin) (res *mcp.CallToolResult, err error) {
	defer func() {
		if p := recover(); p != nil {
			res, err = nil, fault.Panicked(e.s.rt, "tools/call", fault.ToolTarget(e.route.route.Wire().Name), p)
		}
	}()
	return e.route.route.Call(e.ctx, args, o)
}

// settle records how a run of task id ended, unless the task ended first
// (a cancelled task stays cancelled), and returns the store's error when
// it failed to (logged).
func (s *taskServer) settle(id string, res *mcp.CallToolResult, err error) error {
	outcome := func(t *store.Task) error {
		if t.Status.Terminal() {
			return errTaskUnchanged
		}
		t.UpdatedAt, t.LeaseUntil = s.now().UTC(), time.Time{} // no replica runs it from now on
		if err == nil && res != nil && res.InputRequests != nil {
			requests, merr := splitInputRequests(res.InputRequests)
			if merr == nil {
				t.Status, t.InputRequests, t.RequestState = store.TaskInputRequired, requests, res.RequestState
				t.StatusMessage = "waiting for the client's input"
				return nil
			}
			err = merr
		}
		if err != nil && errors.Is(err, context.Canceled) && s.running.cutting.Load() {
			t.Status, t.StatusMessage = store.TaskFailed, "interrupted by the server's shutdown: start the call again"
			t.Error = rpcErrorJSON(&jsonrpc.Error{Code: jsonrpc.CodeInternalError,
				Message: "the task was interrupted by the server's shutdown at the end of its grace period; it may have partly run: check, then start the call again"})
			s.logger.Warn("vurb: task cut at the end of the shutdown grace period", "task", id, "tool", t.Tool)
			return nil
		}
		if err != nil {
			t.Status, t.Error = store.TaskFailed, rpcErrorJSON(err)
			t.StatusMessage = "the call failed: " + engine.Truncate(err.Error(), 200)
			return nil
		}
		t.Status, t.Result, t.StatusMessage = store.TaskCompleted, resultJSON(res), ""
		return nil
	}
	_, uerr := s.store.Update(context.Background(), id, outcome)
	if errors.Is(uerr, store.ErrTaskNotFound) {
		uerr = s.running.Restore(id, outcome) // the store lost it (restarted empty): saved again, ended
	}
	if errors.Is(uerr, store.ErrTasksFull) { // the outcome does not fit: the task fails, saying so
		s.logger.Warn("vurb: a task's outcome does not fit in the task store", "task", id, "err", uerr.Error())
		_, uerr = s.store.Update(context.Background(), id, func(t *store.Task) error {
			if t.Status.Terminal() {
				return errTaskUnchanged
			}
			t.UpdatedAt, t.Status, t.StatusMessage = s.now().UTC(), store.TaskFailed, "the call's outcome is too large for the task store"
			t.Error = rpcErrorJSON(&jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the call's outcome is too large for the task store; call it again with a narrower request"})
			t.InputRequests, t.Answers, t.RequestState = nil, nil, ""
			return nil
		})
	}
	if uerr != nil && !errors.Is(uerr, errTaskUnchanged) && !errors.Is(uerr, store.ErrTaskNotFound) {
		return uerr
	}
	return nil
}

// resume runs the call of rec again, with every answer so far: the client
// has answered all the task waited for.
func (s *taskServer) resume(base context.Context, rec *store.Task) {
	tr, ok := s.routes[rec.Tool]
	if !ok {
		s.settleUntilStored(rec.ID, nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the task's tool is no longer served"}, rec.Expires())
		return
	}
	e := s.newExecution(base, tr, nil, rec.Expires())
	e.rec = rec
	close(e.started)
	s.track(rec, e.cancel)
	o := s.origin(rec)
	o.Token = auth.TokenInfoFromContext(base) // the answering request's: the task's owner, checked by the caller
	e.launch(rec.Arguments, o)
}

// origin is what a run of rec's call knows of its client.
func (s *taskServer) origin(rec *store.Task) engine.Origin {
	o := engine.Origin{Version: rec.Version, RequestState: rec.RequestState, Answers: decodeAnswers(rec.Answers)}
	if caps, ok := s.caps.Get(rec.Capabilities); ok {
		o.Capabilities = caps
	}
	return o
}

// track counts the task rec as running here, until untrack: while any
// is, their leases are renewed, and their records saved again should the
// store lose them (lease.go).
func (s *taskServer) track(rec *store.Task, cancel context.CancelFunc) {
	r := s.running
	r.mu.Lock()
	r.m[rec.ID] = runningTask{cancel: cancel, rec: rec.Clone(), s: s}
	if r.stopRenewing == nil {
		ctx, stop := context.WithCancel(context.Background())
		r.stopRenewing = stop
		go s.renewLeases(ctx)
	}
	r.mu.Unlock()
}

func (s *taskServer) untrack(id string) {
	r := s.running
	r.mu.Lock()
	delete(r.m, id)
	if len(r.m) == 0 {
		r.idle.Done()
		if r.stopRenewing != nil {
			r.stopRenewing()
			r.stopRenewing = nil
		}
	}
	r.mu.Unlock()
}

// Interrupt cancels the run of task id, if it runs in this process.
func (s *taskServer) interrupt(id string) { s.running.Interrupt(id) }

// Interrupt cancels the context of the task id, if it runs in this
// process.
func (r *runningTasks) Interrupt(id string) {
	r.mu.Lock()
	run, ok := r.m[id]
	delete(r.m, id)
	r.mu.Unlock()
	if ok {
		run.cancel()
	}
}

// splitInputRequests encodes requests one by one, as the record keeps them.
func splitInputRequests(requests mcp.InputRequestMap) (map[string]json.RawMessage, error) {
	data, err := json.Marshal(requests)
	if err != nil {
		return nil, err
	}
	var out map[string]json.RawMessage
	return out, json.Unmarshal(data, &out)
}

// decodeAnswer reads one input response, of whichever kind it is.
func decodeAnswer(raw json.RawMessage) (mcp.InputResponse, error) {
	var m mcp.InputResponseMap
	doc := append(append([]byte(`{"a":`), raw...), '}')
	if err := json.Unmarshal(doc, &m); err != nil {
		return nil, err
	}
	return m["a"], nil
}

// decodeAnswers reads the answers a record keeps; one that does not read
// is left out (it was checked when it arrived).
func decodeAnswers(raw map[string]json.RawMessage) mcp.InputResponseMap {
	if len(raw) == 0 {
		return nil
	}
	out := make(mcp.InputResponseMap, len(raw))
	for k, v := range raw {
		if a, err := decodeAnswer(v); err == nil {
			out[k] = a
		}
	}
	return out
}

// resultJSON is the inlined result of a completed task: the CallToolResult
// the call would have returned, content never null.
func resultJSON(res *mcp.CallToolResult) json.RawMessage {
	out := mcp.CallToolResult{Content: []mcp.Content{}}
	if res != nil {
		out.Meta, out.StructuredContent, out.IsError = res.Meta, res.StructuredContent, res.IsError
		if res.Content != nil {
			out.Content = res.Content
		}
	}
	data, err := json.Marshal(&out)
	if err != nil {
		return json.RawMessage(`{"content":[{"type":"text","text":"the result could not be encoded"}],"isError":true}`)
	}
	return data
}

// rpcErrorJSON is the error of a failed task: the JSON-RPC error the call
// returned, or an internal error saying why it stopped.
func rpcErrorJSON(err error) json.RawMessage {
	var rpcErr *jsonrpc.Error
	switch {
	case errors.As(err, &rpcErr):
	case errors.Is(err, context.DeadlineExceeded):
		rpcErr = &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the task outlived its TTL"}
	case errors.Is(err, context.Canceled):
		rpcErr = &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the task was interrupted"}
	default:
		rpcErr = &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
	}
	data, merr := json.Marshal(rpcErr)
	if merr != nil {
		return json.RawMessage(`{"code":-32603,"message":"internal error"}`)
	}
	return data
}

// StartTask is vurb.StartTask; see its documentation there.
func StartTask(ctx context.Context) error {
	e := executionFrom(ctx)
	if e == nil {
		return ErrNoTask
	}
	return e.start()
}

// SetTaskStatus is vurb.SetTaskStatus; see its documentation there.
func SetTaskStatus(ctx context.Context, message string) error {
	e := executionFrom(ctx)
	if e == nil {
		return ErrNoTask
	}
	return e.setStatus(message)
}

// TaskID is vurb.TaskID; see its documentation there.
func TaskID(ctx context.Context) (string, bool) {
	e := executionFrom(ctx)
	if e == nil {
		return "", false
	}
	id := e.taskID()
	return id, id != ""
}
