package edge

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/engine"
)

// carriedCalls makes a go-sdk server's tools/call of call_tool the call it
// carries (tool search, engine.Plan.Resolve), before any other middleware
// reads it: the go-sdk dispatches the named tool, and the app's request
// middleware, the errors and the handler see its name and arguments. It
// carries calls of the app's tools only: a tool of the server's own (one
// vurb is attached to) is not reachable through call_tool, whose handler
// answers it as unknown. The HTTP front does the same for the fronts
// before the go-sdk (wire.Carried). It is nil when the plan does not
// search.
func carriedCalls(p *engine.Plan) mcp.Middleware {
	if !p.Searching() {
		return nil
	}
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "tools/call" {
				if params, ok := req.GetParams().(*mcp.CallToolParamsRaw); ok && params != nil {
					if name, args, ok := p.Resolve(params.Name, params.Arguments); ok && p.Has(name) {
						params.Name, params.Arguments = name, args
					}
				}
			}
			return next(ctx, method, req)
		}
	}
}
