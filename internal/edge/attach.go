package edge

import (
	"context"
	"encoding/json"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/engine"
)

// ToolServer is vurb.ToolServer; see its documentation there.
type ToolServer interface {
	AddTool(t *mcp.Tool, h mcp.ToolHandler)
	RemoveTools(names ...string)
}

// Attach is vurb.Attach; see its documentation there.
func (a *Site) Attach(server ToolServer, opts ...ServeOption) (detach func()) {
	cfg := newServeConfig(opts)
	cfg.mustNotNeedHTTP("Attach")
	cfg.mustNotStateLocal("Attach")
	vs := a.views(&cfg)
	s, ok := server.(*mcp.Server)
	if !ok {
		return a.attach(server, &cfg, vs)
	}
	// The middleware stays on the server after detach (a go-sdk server
	// removes none), so it stops with the tools.
	var on atomic.Bool
	on.Store(true)
	for _, mw := range []mcp.Middleware{listMiddleware(vs), searchListing(a.Plan, vs), carriedCalls(a.Plan)} {
		if mw != nil {
			s.AddReceivingMiddleware(while(&on, mw))
		}
	}
	if a.Plan.SessionFlows() {
		s.AddSendingMiddleware(toolsChangedNotice) // flow_notice.go
		a.noticed.add(s)
	}
	detachTools := a.attach(server, &cfg, vs)
	return func() {
		on.Store(false)
		detachTools()
	}
}

// while is mw while on holds, and the next handler after.
func while(on *atomic.Bool, mw mcp.Middleware) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		wrapped := mw(next)
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if on.Load() {
				return wrapped(ctx, method, req)
			}
			return next(ctx, method, req)
		}
	}
}

// attach adds the routes cfg lets through; vs, when not nil, gives each
// caller its own view of them.
func (a *Site) attach(server ToolServer, cfg *serveConfig, vs *Views) (detach func()) {
	routes := a.view(cfg)
	served := make(map[string]engine.Route, len(routes))
	for _, r := range routes {
		served[r.Wire().Name] = r
	}
	names := make([]string, len(routes))
	for i, r := range routes {
		server.AddTool(r.Wire(), toolHandler(a.Plan, r, served, vs))
		names[i] = r.Wire().Name
	}
	return func() { server.RemoveTools(names...) }
}

// view is the routes cfg's filters let through, and tool search's own,
// which every caller has.
func (a *Site) view(cfg *serveConfig) []engine.Route {
	var allow func(*engine.Endpoint) bool
	if cfg.filters() {
		allow = func(ep *engine.Endpoint) bool { return ep.Spec().Finder || cfg.allows(ep.Tags()) }
	}
	return a.Plan.View(allow)
}

// toolHandler adapts a route to the SDK's ToolHandler. With per-caller
// views (vs), the route is the caller's view of it, and a tool the caller
// does not see is unknown.
//
// Under tool search, a call of call_tool is the call it carries
// (engine.Plan.Resolve): a go-sdk server's middleware has unwrapped it
// already when it names one of the app's tools (carriedCalls); here it is
// the call of a tool the server does not serve (served, by wire name),
// answered as unknown in the words of a direct call, or the call of a
// ToolServer of another kind, which vurb cannot wrap.
func toolHandler(p *engine.Plan, r engine.Route, served map[string]engine.Route, vs *Views) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if req == nil {
			return r.Call(ctx, nil, &engine.Origin{})
		}
		var meta mcp.Meta
		var args json.RawMessage
		if req.Params != nil {
			meta, args = req.Params.Meta, req.Params.Arguments
		}
		o := OriginOf(ctx, req, meta)
		name, own := r.Wire().Name, r
		if inner, innerArgs, ok := p.Resolve(name, args); ok {
			name, args, own = inner, innerArgs, served[inner]
		}
		seen := vs.Seen(name, own, &o) // this call's view of the route: r is shared by every call
		if seen == nil {
			return nil, engine.UnknownTool(p.Runtime(), name)
		}
		if req.Params != nil {
			o.ProgressToken = req.Params.GetProgressToken()
			o.Answers, o.RequestState = req.Params.InputResponses, req.Params.RequestState
		}
		return seen.Call(ctx, args, &o)
	}
}
