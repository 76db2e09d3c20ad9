package tasks

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/edge/wire"
	"github.com/vurb-go/vurb/internal/engine"
	"github.com/vurb-go/vurb/internal/limit"
	"github.com/vurb-go/vurb/store"
)

// TaskFront serves the tasks extension for sessionless (2026-07-28) HTTP
// requests, in front of the handler that serves everything else (the fast
// lane, the go-sdk). The go-sdk knows nothing of the extension: it refuses
// tasks/get as an unknown method and cannot answer a tools/call with a
// task. The front picks its requests by their routing headers alone
// (Mcp-Method tasks/get, tasks/update or tasks/cancel; tools/call with an
// Mcp-Name that runs as a task), so every other request passes untouched
// and unread; one it picks but finds unusual (headers that disagree with
// the body, a missing _meta) it hands over as it came, for the go-sdk to
// judge.
type TaskFront struct {
	s        *taskServer
	enc      wire.Encoder      // writes answers as the lane and the go-sdk do
	headered map[string]bool   // x-mcp-header tools: the go-sdk checks their headers
	mw       []mcp.Middleware  // the app's request middleware, panics contained first
	rules    wire.RequestRules // the rules every front applies (wire.RequestRules)
	// The go-sdk's own cross-origin check, which the front must not
	// bypass (Host and Origin are checked before any front: see guard).
	crossOrigin *http.CrossOriginProtection
	// hub tells the other replicas of a cancelled task, which may run
	// there (nil: one process).
	hub replicas
}

// FrontDeps is what the edge gives a tasks front: the app's tasks and
// routes, its runtime, and the seams to the rest of the edge.
type FrontDeps struct {
	Table       *TaskTable
	Routes      []engine.Route
	Runtime     *engine.Runtime
	Logger      *slog.Logger
	Views       viewer     // nil: no per-caller views
	Health      storeWatch // the shared store's health
	Hub         replicas   // nil: one process
	Encoder     wire.Encoder
	CrossOrigin *http.CrossOriginProtection
	Middleware  []mcp.Middleware // the app's request middleware, panics contained first
}

// NewTaskFront returns the front of the tasks of d's routes, or nil when
// none of them runs as a task.
func NewTaskFront(d FrontDeps) *TaskFront {
	s := newTaskServer(d.Table, d.Routes, d.Runtime, d.Logger)
	if s == nil {
		return nil
	}
	s.views, s.health = d.Views, d.Health
	f := &TaskFront{s: s, enc: d.Encoder, headered: map[string]bool{}, mw: d.Middleware, rules: wire.NewRequestRules(),
		crossOrigin: d.CrossOrigin, hub: d.Hub}
	for name, tr := range s.routes {
		if wire.MirrorsHeaders(tr.route) {
			f.headered[name] = true
		}
	}
	return f
}

// taskRequest is what the front read of a request.
type taskRequest struct {
	to      wire.Reply // for writing the answer
	version string     // the revision
	method  string
	caps    json.RawMessage
	name    string          // tools/call
	args    json.RawMessage // tools/call
	answers json.RawMessage // tools/call and tasks/update: inputResponses
	state   string          // tools/call: requestState
	taskID  json.RawMessage // tasks/*
}

// Serve answers r, whose body is m, when it is the front's, and reports
// whether it did; when it did not, it wrote nothing.
func (f *TaskFront) Serve(w http.ResponseWriter, r *http.Request, m *wire.Message) bool {
	if !f.picks(r) || f.rules.Check(r.Header, m) != "" {
		return false
	}
	var req taskRequest
	if !f.parse(m.RPC(), &req) {
		return false
	}
	if req.method == "tools/call" {
		return f.call(w, r, &req)
	}
	f.task(w, r, &req)
	return true
}

// picks reports, from the headers, whether r is a request the front
// serves; the request rules (wire.RequestRules) then say whether it may take it.
func (f *TaskFront) picks(r *http.Request) bool {
	h := r.Header
	if r.Method != http.MethodPost || h.Get(wire.SessionIDHeader) != "" || !wire.SessionlessRevision(h.Get(wire.ProtocolVersionHeader)) {
		return false
	}
	switch method := h.Get("Mcp-Method"); method {
	case "tasks/get", "tasks/update", "tasks/cancel":
	case "tools/call":
		name := h.Get("Mcp-Name")
		if _, ok := f.s.routes[name]; !ok || f.headered[name] {
			return false
		}
	default:
		return false
	}
	return f.crossOrigin == nil || f.crossOrigin.Check(r) == nil
}

// parse reads the envelope the request rules passed (which hold it to
// the headers), its params and their _meta. Members the extension does
// not name (a legacy task hint) are ignored, as it asks.
func (f *TaskFront) parse(e *wire.RPC, req *taskRequest) bool {
	if e.Params == nil {
		return false
	}
	var ok bool
	if req.method, ok = wire.PlainString(e.Method); !ok {
		return false
	}
	if req.to.ID, ok = wire.RequestID(e.ID); !ok {
		return false
	}
	req.to.NewRev = true
	req.args, req.answers, req.taskID = e.Args, e.Answers, e.TaskID
	if e.State != nil {
		if req.state, ok = wire.PlainString(e.State); !ok {
			return false
		}
	}
	if req.method == "tools/call" {
		if req.name, ok = wire.PlainString(e.Name); !ok {
			return false
		}
	}
	return f.parseMeta(e, req)
}

// parseMeta reads the revision and the client's capabilities.
func (f *TaskFront) parseMeta(e *wire.RPC, req *taskRequest) bool {
	if e.Meta == nil {
		return false
	}
	req.caps = e.Caps
	v, ok := wire.PlainString(e.Revision)
	if !ok || len(req.caps) == 0 || req.caps[0] != '{' {
		return false
	}
	req.version = v
	_, ok = f.s.caps.Get(req.caps)
	return ok
}

// declaresTasks reports whether the request's client declared the tasks
// extension.
func (f *TaskFront) declaresTasks(req *taskRequest) bool {
	caps, ok := f.s.caps.Get(req.caps)
	if !ok {
		return false
	}
	_, declared := caps.Extensions[TasksExtension]
	return declared
}

// missingTasksCapability is the -32021 error of a request that needs the
// extension.
func missingTasksCapability(what string) *jsonrpc.Error {
	data, _ := json.Marshal(map[string]any{"requiredCapabilities": map[string]any{
		"extensions": map[string]any{TasksExtension: struct{}{}}}})
	return &jsonrpc.Error{Code: mcp.CodeMissingRequiredClientCapabilities, Data: data,
		Message: fmt.Sprintf("%s needs the %s extension; declare it in _meta \"%s\".extensions",
			what, TasksExtension, mcp.MetaKeyClientCapabilities)}
}

// call answers a tools/call of a task route, or reports false to hand it
// over (a client that did not declare the extension, for an action that
// may run synchronously).
func (f *TaskFront) call(w http.ResponseWriter, r *http.Request, req *taskRequest) bool {
	tr := f.s.routes[req.name]
	o := engine.Origin{Version: req.version, RequestState: req.state, Header: r.Header,
		Token: auth.TokenInfoFromContext(r.Context()), Remote: r.RemoteAddr}
	o.Capabilities, _ = f.s.caps.Get(req.caps)
	// The caller's own view of the tool, as on every other path: a hidden
	// tool is unknown, a grouped one reaches only what it sees.
	seen := f.s.seen(req.name, tr.route, &o)
	if seen == nil {
		f.enc.WriteError(w, req.to, engine.UnknownTool(f.s.rt, req.name).(*jsonrpc.Error))
		return true
	}
	tr.route = seen
	if !f.declaresTasks(req) {
		if !tr.spec.Required {
			return false
		}
		f.enc.WriteError(w, req.to, missingTasksCapability(fmt.Sprintf("tool %q runs only as a task: it", req.name)))
		return true
	}
	if len(f.mw) == 0 {
		return f.start(w, r, req, tr, o)
	}
	// The app's request middleware wraps the call that starts a task as it
	// wraps any other tools/call: a guard that refuses it stops it here, and
	// the context it passes on (a trace span) is the task's. The rare call
	// handed over from inside (answers the go-sdk must judge, a full store)
	// meets the middleware again on the go-sdk's path.
	answered, handedOver := false, false
	innermost := func(ctx context.Context, _ string, _ mcp.Request) (mcp.Result, error) {
		answered = true
		handedOver = !f.start(w, r.WithContext(ctx), req, tr, o)
		return &mcp.CallToolResult{}, nil
	}
	params := &mcp.CallToolParamsRaw{Name: req.name, Arguments: req.args}
	_, err := wire.Chain(innermost, f.mw)(r.Context(), "tools/call",
		&mcp.CallToolRequest{Params: params, Extra: &mcp.RequestExtra{TokenInfo: o.Token, Header: o.Header}})
	if answered {
		return !handedOver
	}
	rpcErr, ok := err.(*jsonrpc.Error)
	if !ok || rpcErr == nil {
		msg := "the request middleware refused the call"
		if err != nil {
			msg = err.Error()
		}
		rpcErr = &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: msg}
	}
	f.enc.WriteError(w, req.to, rpcErr)
	return true
}

// start creates the task of a call the front answers and writes its
// answer, or reports false to hand the call over. The task's record is
// made only once the call is authorised, valid and within its limits
// (engine.Origin.Admit): a call refused for its scopes, its arguments or
// its rate is answered as any call would be, and leaves nothing stored.
func (f *TaskFront) start(w http.ResponseWriter, r *http.Request, req *taskRequest, tr taskRoute, o engine.Origin) bool {
	call := &taskCall{tool: req.name, args: req.args, version: req.version, caps: req.caps,
		state: req.state, owner: owner(r), caller: limit.CallerBucket(r.Context(), o)}
	if len(req.answers) > 0 && !bytes.Equal(req.answers, []byte("null")) {
		if json.Unmarshal(req.answers, &call.answers) != nil || json.Unmarshal(req.answers, &o.Answers) != nil {
			return false // the go-sdk says what is wrong with them
		}
	}
	e := f.s.newExecution(r.Context(), tr, call, f.s.now().Add(positive(tr.spec.TTL, f.s.ttl)))
	if !tr.spec.Deferred {
		o.Admit = func() error {
			err := e.start()
			var failed *storeFailure
			switch {
			case !tr.spec.Required && (errors.Is(err, store.ErrTasksFull) || errors.As(err, &failed)):
				// Served synchronously instead: no task, the answer is the
				// call's. A store that is full or down costs the task, not
				// the call, which has not run.
				f.s.inline(r.Context(), req.name, call.caller, err)
				return nil
			case errors.Is(err, store.ErrTasksFull):
				return storeFull(err)
			}
			return err // nil, or a storeFailure of a task-only call: read as unavailable
		}
	}
	done := e.launch(req.args, o)
	select {
	case <-e.started:
	case out := <-done: // returned before it became a task: an ordinary answer
		e.cancel()
		f.enc.Respond(w, r, req.to, out.res, out.err)
		return true
	case <-r.Context().Done():
		if !e.finish() {
			e.cancel() // the client left before there was a task
			return true
		}
	}
	data, err := createTaskResult(e.record(), f.enc.ServerMeta)
	if err != nil {
		f.enc.WriteError(w, req.to, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()})
		return true
	}
	f.enc.Write(w, req.to, data)
	return true
}

// owner is the authenticated user of r, or "".
func owner(r *http.Request) string {
	if info := auth.TokenInfoFromContext(r.Context()); info != nil {
		return info.UserID
	}
	return ""
}
