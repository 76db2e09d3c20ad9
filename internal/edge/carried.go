package edge

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/engine"
)

// carriedCalls makes a go-sdk server's tools/call of call_tool the call it
// carries (tool search, engine.Plan.Resolve), before any other middleware
// reads it: the go-sdk dispatches the named tool, and the app's request
// middleware, the errors and the handler see its name and arguments. The
// HTTP front does the same for the fronts before the go-sdk
// (wire.Carried). It is nil when the plan does not search.
func carriedCalls(p *engine.Plan) mcp.Middleware {
	if !p.Searching() {
		return nil
	}
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "tools/call" {
				if params, ok := req.GetParams().(*mcp.CallToolParamsRaw); ok && params != nil {
					if name, args, ok := p.Resolve(params.Name, params.Arguments); ok {
						params.Name, params.Arguments = name, args
					}
				}
			}
			return next(ctx, method, req)
		}
	}
}
