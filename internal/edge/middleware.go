package edge

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// wrapMethod composes mw around h, the first outermost.
func wrapMethod(h mcp.MethodHandler, mw []mcp.Middleware) mcp.MethodHandler {
	for i := len(mw) - 1; i >= 0; i-- {
		h = mw[i](h)
	}
	return h
}
