package vurb

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
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
// Without filters Attach compiles nothing: it hands the SDK the tools and
// handlers built once at Build, so attaching to a fresh server per request
// (as a stateless deployment may) costs little more than AddTool itself.
func (a *App) Attach(server ToolServer, opts ...ServeOption) (detach func()) {
	cfg := newServeConfig(opts)
	entries := a.built().view(a, &cfg)
	names := make([]string, len(entries))
	for i, e := range entries {
		server.AddTool(e.wire, e.handler)
		names[i] = e.wire.Name
	}
	return func() { server.RemoveTools(names...) }
}

// viewEntry is one tool as a server sees it.
type viewEntry struct {
	wire    *mcp.Tool
	handler mcp.ToolHandler
}

// view is the list of tools opts' filter lets through. Without a filter it
// is the list precomputed at build.
func (p *plan) view(a *App, cfg *serveConfig) []viewEntry {
	if !cfg.filters() {
		return p.entries
	}
	var out []viewEntry
	for _, r := range p.order {
		if r.single != nil {
			if cfg.allows(r.single.tags) {
				out = append(out, r.entry())
			}
			continue
		}
		var allowed []*ActionDef
		for _, def := range r.tool.allActions() {
			if cfg.allows(r.actions[def.key].tags) {
				allowed = append(allowed, def)
			}
		}
		switch len(allowed) {
		case 0:
		case len(r.actions):
			out = append(out, r.entry())
		default:
			out = append(out, compileGrouped(a, r.tool, allowed).entry())
		}
	}
	return out
}

// entry adapts the route to the SDK's ToolHandler.
func (r *route) entry() viewEntry {
	return viewEntry{wire: r.wire, handler: func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var o origin
		if req != nil {
			o.session = req.Session
			if req.Params != nil {
				o.progressToken = req.Params.GetProgressToken()
				return r.call(ctx, req.Params.Arguments, o)
			}
		}
		return r.call(ctx, nil, o)
	}}
}
