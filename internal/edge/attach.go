package edge

import (
	"context"
	"encoding/json"

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
	if s, ok := server.(*mcp.Server); ok {
		if mw := listMiddleware(a.Plan, vs); mw != nil {
			s.AddReceivingMiddleware(mw) // each caller lists what it may call
		}
		if mw := carriedCalls(a.Plan); mw != nil {
			s.AddReceivingMiddleware(mw)
		}
	}
	return a.attach(server, &cfg, vs)
}

// attach adds the routes cfg lets through; vs, when not nil, gives each
// caller its own view of them.
func (a *Site) attach(server ToolServer, cfg *serveConfig, vs *Views) (detach func()) {
	routes := a.view(cfg)
	names := make([]string, len(routes))
	for i, r := range routes {
		server.AddTool(r.Wire(), toolHandler(a.Plan, r, vs))
		names[i] = r.Wire().Name
	}
	return func() { server.RemoveTools(names...) }
}

// view is the routes cfg's filters let through.
func (a *Site) view(cfg *serveConfig) []engine.Route {
	var allow func(*engine.Endpoint) bool
	if cfg.filters() {
		allow = func(ep *engine.Endpoint) bool { return cfg.allows(ep.Tags()) }
	}
	return a.Plan.View(allow)
}

// toolHandler adapts a route to the SDK's ToolHandler. With per-caller
// views (vs), the route is the caller's view of it, and a tool the caller
// does not see is unknown.
//
// Under tool search, a call of call_tool is the call it carries
// (engine.Plan.Resolve): a go-sdk server's middleware has unwrapped it
// already (carriedCalls); a ToolServer of another kind, which vurb
// cannot wrap, calls it here.
func toolHandler(p *engine.Plan, r engine.Route, vs *Views) mcp.ToolHandler {
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
			name, args = inner, innerArgs
			own, _ = p.Route(inner)
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
