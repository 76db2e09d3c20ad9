package vurb

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/engine"
)

// ToolServer is what Attach needs of an MCP server. *mcp.Server implements
// it; a test double or a wrapper can stand in for it.
type ToolServer interface {
	AddTool(t *mcp.Tool, h mcp.ToolHandler)
	RemoveTools(names ...string)
}

// Attach registers the app's compiled tools, in the app's exposition and
// through opts' tag filters, on server, with vurb's own decoding and
// validation (the SDK's low-level AddTool validates nothing a second time).
// It builds the app if needed and returns a function that removes exactly
// the tools it added.
//
// Attach compiles nothing: it hands the SDK the tools and handlers built
// once at Build, or, through a filter, a view of them derived from the
// plan (a grouped tool some of whose actions are hidden is listed over the
// others, sharing their compiled chains). Attaching to a fresh server per
// request, as a stateless deployment may, costs little more than AddTool
// itself. Like NewServer, it panics on HTTP settings in opts.
//
// Calls through an attached tool keep every rule of the app: scopes, and
// the caller's view under WithVisibility. On an *mcp.Server, Attach also
// filters tools/list per caller (the app's tools only; the server's own
// are listed as they are); on another ToolServer, the list is yours.
func (a *App) Attach(server ToolServer, opts ...ServeOption) (detach func()) {
	cfg := newServeConfig(opts)
	cfg.mustNotNeedHTTP("Attach")
	vs := a.views(&cfg)
	if s, ok := server.(*mcp.Server); ok && vs != nil {
		s.AddReceivingMiddleware(vs.listMiddleware) // each caller lists what it may call
	}
	return a.attach(server, &cfg, vs)
}

// attach adds the routes cfg lets through; vs, when not nil, gives each
// caller its own view of them.
func (a *App) attach(server ToolServer, cfg *serveConfig, vs *views) (detach func()) {
	routes := a.view(cfg)
	names := make([]string, len(routes))
	for i, r := range routes {
		server.AddTool(r.Wire(), toolHandler(r, vs))
		names[i] = r.Wire().Name
	}
	return func() { server.RemoveTools(names...) }
}

// view is the routes cfg's filters let through.
func (a *App) view(cfg *serveConfig) []engine.Route {
	var allow func(*engine.Endpoint) bool
	if cfg.filters() {
		allow = func(ep *engine.Endpoint) bool { return cfg.allows(ep.Tags()) }
	}
	return a.built().View(allow)
}

// toolHandler adapts a route to the SDK's ToolHandler. With per-caller
// views (vs), the route is the caller's view of it, and a tool the caller
// does not see is unknown.
func toolHandler(r engine.Route, vs *views) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if req == nil {
			return r.Call(ctx, nil, engine.Origin{})
		}
		var meta mcp.Meta
		if req.Params != nil {
			meta = req.Params.Meta
		}
		o := originOf(ctx, req, meta)
		seen := vs.seen(r.Wire().Name, r, &o) // this call's view of the route: r is shared by every call
		if seen == nil {
			return nil, engine.UnknownTool(vs.plan.Runtime(), r.Wire().Name)
		}
		if req.Params == nil {
			return seen.Call(ctx, nil, o)
		}
		o.ProgressToken = req.Params.GetProgressToken()
		o.Answers, o.RequestState = req.Params.InputResponses, req.Params.RequestState
		return seen.Call(ctx, req.Params.Arguments, o)
	}
}
