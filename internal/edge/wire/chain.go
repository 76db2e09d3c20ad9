package wire

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Chain composes mw around h, the first outermost.
func Chain(h mcp.MethodHandler, mw []mcp.Middleware) mcp.MethodHandler {
	for i := len(mw) - 1; i >= 0; i-- {
		h = mw[i](h)
	}
	return h
}
