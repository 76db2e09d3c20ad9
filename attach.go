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
func (a *App) Attach(server ToolServer, opts ...ServeOption) (detach func()) {
	cfg := newServeConfig(opts)
	cfg.mustNotNeedHTTP("Attach")
	return a.attach(server, &cfg)
}

func (a *App) attach(server ToolServer, cfg *serveConfig) (detach func()) {
	routes := a.view(cfg)
	names := make([]string, len(routes))
	for i, r := range routes {
		server.AddTool(r.Wire(), toolHandler(r))
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

// toolHandler adapts a route to the SDK's ToolHandler.
func toolHandler(r engine.Route) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var o engine.Origin
		if req == nil {
			return r.Call(ctx, nil, o)
		}
		o.Session = req.Session
		o.Version = req.ProtocolVersion()
		o.Capabilities = req.ClientCapabilities()
		if req.Params == nil {
			return r.Call(ctx, nil, o)
		}
		o.ProgressToken = req.Params.GetProgressToken()
		o.Answers, o.RequestState = req.Params.InputResponses, req.Params.RequestState
		return r.Call(ctx, req.Params.Arguments, o)
	}
}
