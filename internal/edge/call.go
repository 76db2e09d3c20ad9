package edge

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/engine"
)

// Call runs the tool called name in-process for the caller of o, in its
// class's view when the app has per-caller views (see vurb.App.Call).
func (a *Site) Call(ctx context.Context, name string, args json.RawMessage, o engine.Origin) (*mcp.CallToolResult, error) {
	p := a.Plan
	if inner, innerArgs, ok := p.Resolve(name, args); ok {
		name, args = inner, innerArgs // call_tool is the call it carries
	}
	a.callViewsOnce.Do(func() {
		cfg := newServeConfig(nil)
		a.callViews = a.views(&cfg)
	})
	if a.callViews == nil {
		return p.Call(ctx, name, args, &o)
	}
	return a.callSeen(ctx, name, args, o)
}

// callSeen is Call in the caller's view; apart, so that o stays on Call's
// stack when there are no views.
func (a *Site) callSeen(ctx context.Context, name string, args json.RawMessage, o engine.Origin) (*mcp.CallToolResult, error) {
	p := a.Plan
	own, _ := p.Route(name)
	r := a.callViews.Seen(name, own, &o)
	if r == nil {
		return nil, engine.UnknownTool(p.Runtime(), name)
	}
	return r.Call(ctx, args, &o)
}
