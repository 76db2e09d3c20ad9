package engine

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Flat exposes one wire tool per action, named tool_action, each with only
// its own fields and its own annotations.
type Flat struct{}

// String returns "flat".
func (Flat) String() string { return "flat" }

// Expose makes one route per endpoint.
func (Flat) Expose(t *ToolSpec, eps []*Endpoint, env Env) []Route {
	routes := make([]Route, len(eps))
	for i, ep := range eps {
		a := ep.spec
		name := FlatName(t.Name, a.Key, env.Separator)
		mustWireName(name, ep.key)
		info := describeAction(a)
		wire := &mcp.Tool{
			Name:        name,
			Title:       a.Title,
			Description: env.Runtime.Describer.OrDefault().Flat(t.Name, info),
			InputSchema: withHeaders(a.In.Schema(), a.Headers),
			Annotations: actionAnnotations(a, info),
		}
		if a.OutputSchema != nil {
			wire.OutputSchema = a.OutputSchema
		}
		routed := ep.routed(name, "")
		routes[i] = &flatRoute{wire: wire, ep: routed, eps: []*Endpoint{routed}}
	}
	return routes
}

// flatRoute is the wire tool of one action.
type flatRoute struct {
	wire *mcp.Tool
	ep   *Endpoint
	eps  []*Endpoint // ep alone, made once: a search asks a caller's view of many
}

func (r *flatRoute) Wire() *mcp.Tool        { return r.wire }
func (r *flatRoute) Endpoints() []*Endpoint { return r.eps }

func (r *flatRoute) Call(ctx context.Context, args json.RawMessage, o *Origin) (*mcp.CallToolResult, error) {
	return r.ep.call(ctx, args, o)
}
