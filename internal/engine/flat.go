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
		routes[i] = &flatRoute{wire: wire, ep: ep.routed(name, "")}
	}
	return routes
}

// flatRoute is the wire tool of one action.
type flatRoute struct {
	wire *mcp.Tool
	ep   *Endpoint
}

func (r *flatRoute) Wire() *mcp.Tool        { return r.wire }
func (r *flatRoute) Endpoints() []*Endpoint { return []*Endpoint{r.ep} }

func (r *flatRoute) Call(ctx context.Context, args json.RawMessage, o *Origin) (*mcp.CallToolResult, error) {
	return r.ep.call(ctx, args, o)
}
