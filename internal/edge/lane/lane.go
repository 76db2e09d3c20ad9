package lane

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/edge/fault"
	"github.com/vurb-go/vurb/internal/edge/wire"
	"github.com/vurb-go/vurb/internal/engine"
)

// The fast lane. A request that needs nothing from a session (every request
// of revision 2026-07-28 and later that names none, and every request with
// WithStateless()) is, through the go-sdk, a session, a JSON-RPC connection and
// a stream made and torn down around one call, and about six JSON decodes
// that each allocate a fresh 32 KiB buffer. The lane answers the common
// ones itself, tools/call and tools/list, from the compiled plan: one
// decode of the envelope, one encode of the answer.
//
// It only ever answers what the go-sdk would answer, byte for byte (a
// differential test holds it to that): whatever it does not recognise as
// plainly valid, or would need a stream for (progress, logging, input
// requests of handshake-era clients, batches, notifications, pagination,
// x-mcp-header tools), it hands to the go-sdk untouched, before writing
// anything. Errors are the go-sdk's, except those a handler returns, which
// the lane encodes as the go-sdk does.
type Lane struct {
	sdk          http.Handler // the go-sdk's stateless handler: everything else
	rt           *engine.Runtime
	routes       map[string]engine.Route
	headered     map[string]bool // tools with x-mcp-header bindings: the go-sdk checks them
	wire.Encoder                 // writes the answers, as the tasks front does
	lists        *listCache
	caps         *wire.CapsCache
	// wrapped runs a tools/call through the app's request middleware
	// (WithRequestMiddleware), nil when it has none.
	wrapped mcp.MethodHandler
	// views are the app's per-caller tool lists, nil when it has none
	// (the edge's Views); tools/list then goes to the go-sdk.
	views Viewer
	rules wire.RequestRules
}

// New returns the lane over the routes a server exposes, or nil when an
// option it cannot honour is set (an event store, a custom SetCacheable,
// the SDK's own cross-origin protection).
func New(sdk http.Handler, rt *engine.Runtime, routes []engine.Route, impl *mcp.Implementation, ho *mcp.StreamableHTTPOptions, userCacheable bool,
	mw []mcp.Middleware, vs Viewer) *Lane {
	if ho.EventStore != nil || ho.CrossOriginProtection != nil || userCacheable {
		return nil
	}
	l := &Lane{sdk: sdk, rt: rt, routes: make(map[string]engine.Route, len(routes)), headered: map[string]bool{},
		lists: &listCache{sdk: sdk}, caps: &wire.CapsCache{}}
	var err error
	if l.Encoder, err = wire.NewEncoder(impl, ho.JSONResponse); err != nil {
		return nil
	}
	l.views = vs
	l.rules = wire.NewRequestRules()
	if len(mw) > 0 {
		// Outermost, as on the go-sdk's path (newServer): a panicking
		// middleware is an internal error, not a dropped connection.
		l.wrapped = wire.Chain(l.runCall, append([]mcp.Middleware{fault.Contain(rt)}, mw...))
	}
	for _, r := range routes {
		name := r.Wire().Name
		l.routes[name] = r
		if wire.MirrorsHeaders(r) {
			l.headered[name] = true
		}
	}
	return l
}

// laneRequest is what the lane understood of a request.
type laneRequest struct {
	wire.Reply // whom the answer goes to, and how
	method     string
	version    string // the revision, "" for a stateless handshake-era request
	caps       *mcp.ClientCapabilities
	meta       json.RawMessage // the request's _meta, decoded only when asked for
	name       string          // tools/call
	args       json.RawMessage // tools/call
}

// Serve answers r from m when the lane may, and reports whether it did;
// when it did not, it wrote nothing, and the go-sdk answers r.
func (l *Lane) Serve(w http.ResponseWriter, r *http.Request, m *wire.Message) bool {
	req, ok := l.understand(r, m)
	if !ok {
		return false
	}
	switch req.method {
	case "tools/list":
		return l.views == nil && l.wrapped == nil && l.list(w, r, req, m.Body)
	case "tools/call":
		l.call(w, r, req)
		return true
	}
	return false
}

// understand says whether the lane answers r, whose body is m: a request
// that keeps the request rules (wire.RequestRules), of a method and tool the lane
// serves.
func (l *Lane) understand(r *http.Request, m *wire.Message) (req laneRequest, ok bool) {
	if l.rules.Check(r.Header, m) != "" {
		return req, false
	}
	version := r.Header.Get(wire.ProtocolVersionHeader)
	req.NewRev = wire.SessionlessRevision(version)
	if !l.parse(m.RPC(), &req) {
		return req, false
	}
	if !req.NewRev {
		req.version = cmp.Or(version, "2025-03-26") // what the go-sdk assumes without the header
	}
	return req, l.serves(req)
}

// serves reports whether the lane answers req's method and tool: a
// tools/call of a tool it knows that binds no headers (the go-sdk checks
// those).
func (l *Lane) serves(req laneRequest) bool {
	if req.method != "tools/call" {
		return true
	}
	_, known := l.routes[req.name]
	return known && !l.headered[req.name]
}

// parse reads the envelope the request rules passed: one request, with
// exactly the members the lane knows (anything else is the go-sdk's to
// judge).
func (l *Lane) parse(e *wire.RPC, req *laneRequest) bool {
	if e.ParamsOthers || e.URI != nil || e.Answers != nil || e.State != nil || e.TaskID != nil {
		return false // a cursor, inputResponses, requestState, task: the go-sdk's
	}
	var ok bool
	if req.ID, ok = wire.RequestID(e.ID); !ok {
		return false
	}
	switch string(e.Method) { // the methods the lane answers, without copying them
	case `"tools/list"`:
		req.method = "tools/list"
		if e.Name != nil || e.Args != nil {
			return false
		}
	case `"tools/call"`:
		req.method = "tools/call"
		if req.name, ok = l.toolName(e.Name); !ok {
			return false
		}
		req.args = e.Args
	default:
		return false
	}
	return l.parseMeta(e, req)
}

// toolName is the name a tools/call names: a tool's own name when it
// is one, read without a copy.
func (l *Lane) toolName(raw []byte) (string, bool) {
	if len(raw) >= 2 && raw[0] == '"' && raw[len(raw)-1] == '"' {
		if r, ok := l.routes[string(raw[1:len(raw)-1])]; ok {
			return r.Wire().Name, true
		}
	}
	return wire.PlainString(raw)
}

// parseMeta reads the request's _meta: a 2026-07-28 request's protocol
// revision and client capabilities. A progress token or a log level needs
// a stream, and unknown members may mean something to the go-sdk: those go
// there.
func (l *Lane) parseMeta(e *wire.RPC, req *laneRequest) bool {
	if e.Meta == nil {
		return !req.NewRev
	}
	if e.MetaOthers {
		return false
	}
	for _, trace := range [2][]byte{e.Traceparent, e.Tracestate} { // trace context (SEP-414): the handler reads it through Caller.Meta
		if _, ok := wire.PlainString(trace); trace != nil && !ok {
			return false
		}
	}
	req.meta = e.Meta
	if !req.NewRev {
		return e.Revision == nil && e.Caps == nil && e.Info == nil
	}
	var ok bool
	if req.version, ok = wire.PlainString(e.Revision); !ok || len(e.Caps) == 0 || e.Caps[0] != '{' {
		return false
	}
	if e.Info != nil && e.Info[0] != '{' {
		return false
	}
	req.caps, ok = l.caps.Get(e.Caps)
	return ok
}

// call runs a tools/call through the plan and writes the answer.
func (l *Lane) call(w http.ResponseWriter, r *http.Request, req laneRequest) {
	o := engine.Origin{Version: req.version, Capabilities: req.caps, RawMeta: req.meta, Header: r.Header,
		Token: auth.TokenInfoFromContext(r.Context()), Remote: r.RemoteAddr}
	if l.wrapped != nil {
		res, err := l.callWrapped(r.Context(), req, o)
		l.Respond(w, r, req.Reply, res, err)
		return
	}
	l.answer(w, r, req, o)
}

// answer runs the tools/call req with origin o and answers it on w, or
// lets the call's watch answer it late (overdue.go). It reports
// false, having written nothing, when the call was handed over to the
// go-sdk (engine.ErrHandover), which only a detached origin's can be.
func (l *Lane) answer(w http.ResponseWriter, r *http.Request, req laneRequest, o engine.Origin) bool {
	c := l.newCall(o, w, r, req)
	rt := l.route(req.name, &c.o)
	if rt == nil {
		l.Respond(w, r, req.Reply, nil, engine.UnknownTool(l.rt, req.name))
		return true
	}
	res, err := l.contained(r.Context(), rt, req, &c.o)
	switch {
	case errors.Is(err, engine.ErrHandover):
		return false
	case err == engine.ErrAnswered:
		return true
	}
	l.Respond(w, r, req.Reply, res, err)
	return true
}

// contained runs the call, answering a panic outside the handler (the
// engine contains the handler's own) as every path does (panicked).
func (l *Lane) contained(ctx context.Context, rt engine.Route, req laneRequest, o *engine.Origin) (res *mcp.CallToolResult, err error) {
	defer func() {
		if p := recover(); p != nil {
			res, err = nil, fault.Panicked(l.rt, "tools/call", fault.ToolTarget(req.name), p)
		}
	}()
	return rt.Call(ctx, req.args, o)
}

// route is the route a caller reaches by name: the app's own, or its view
// for the caller when the app has per-caller lists. Nil is unknown to them.
func (l *Lane) route(name string, o *engine.Origin) engine.Route {
	if l.views == nil {
		return l.routes[name]
	}
	return l.views.Seen(name, l.routes[name], o)
}

// callWrapped runs a tools/call through the app's request middleware, as
// the go-sdk would: a CallToolRequest with the request's _meta and its
// verified token and headers, answered by runCall.
func (l *Lane) callWrapped(ctx context.Context, req laneRequest, o engine.Origin) (*mcp.CallToolResult, error) {
	params := &mcp.CallToolParamsRaw{Name: req.name, Arguments: req.args}
	if len(req.meta) > 0 && json.Unmarshal(req.meta, &params.Meta) != nil {
		params.Meta = nil
	}
	ctx = context.WithValue(ctx, laneCapsKey{}, laneCaps{params, o.Capabilities, o.Remote})
	res, err := l.wrapped(ctx, "tools/call", &mcp.CallToolRequest{Params: params,
		Extra: &mcp.RequestExtra{TokenInfo: o.Token, Header: o.Header}})
	if err != nil {
		return nil, err
	}
	out, ok := res.(*mcp.CallToolResult)
	if !ok || out == nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("request middleware returned %T for tools/call", res)}
	}
	return out, nil
}

// runCall is the innermost handler of callWrapped: the call itself, as the
// middleware passes it on.
func (l *Lane) runCall(ctx context.Context, _ string, req mcp.Request) (mcp.Result, error) {
	call := req.(*mcp.CallToolRequest)
	lc, ok := ctx.Value(laneCapsKey{}).(laneCaps)
	o := engine.Origin{Version: call.ProtocolVersion(), Meta: call.Params.Meta, Remote: lc.remote}
	if ok && lc.params == call.Params {
		o.Capabilities = lc.caps // decoded by the lane, cached
	} else {
		o.Capabilities = call.ClientCapabilities()
	}
	if call.Extra != nil {
		o.Token, o.Header = call.Extra.TokenInfo, call.Extra.Header
	}
	r := l.route(call.Params.Name, &o)
	if r == nil {
		return nil, engine.UnknownTool(l.rt, call.Params.Name)
	}
	res, err := r.Call(ctx, call.Params.Arguments, &o)
	if err != nil {
		return nil, err
	}
	return res, nil
}

// laneCaps hands runCall the client capabilities the lane already decoded
// (and caches), as long as the middleware passes the lane's params on:
// the go-sdk's ClientCapabilities decodes them from _meta again on every
// call, through a fresh JSON buffer, a large part of a fast-lane call's
// time (bench/README.md). It also
// hands on the HTTP client's address, which a CallToolRequest cannot carry.
type laneCaps struct {
	params *mcp.CallToolParamsRaw
	caps   *mcp.ClientCapabilities
	remote string
}

type laneCapsKey struct{}

// list answers tools/list with the go-sdk's own answer, asked once per
// kind of request and kept: the app is frozen, so the list never changes.
func (l *Lane) list(w http.ResponseWriter, r *http.Request, req laneRequest, body []byte) bool {
	result, ok := l.lists.get(r, req.NewRev, body)
	if !ok {
		return false
	}
	l.Write(w, req.Reply, result)
	return true
}
