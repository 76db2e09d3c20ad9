package engine

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Exposition lowers one tool's compiled endpoints to the wire tools a
// client lists and calls. Flat and Grouped are its implementations, each in
// a file of its own; a new way of exposing tools is a new implementation,
// not a branch in the plan.
//
// Expose is a pure function of its arguments: a view of the plan calls it
// again with a subset of a tool's endpoints (those a filter lets through)
// and gets the wire tools of that subset, sharing the endpoints and their
// composed chains.
type Exposition interface {
	String() string
	Expose(t *ToolSpec, eps []*Endpoint, env Env) []Route
}

// Env is what an exposition needs besides the tool: the flat separator
// and the runtime its routes answer with.
type Env struct {
	Separator string
	Runtime   *Runtime
}

// Route is one wire tool: its definition and how a call of it reaches an
// endpoint.
type Route interface {
	// Wire is the tools/list entry. Shared: do not modify.
	Wire() *mcp.Tool
	// Endpoints are the actions the route reaches, in declaration order.
	Endpoints() []*Endpoint
	// Call runs a call of the wire tool with its raw arguments. It reads
	// o and neither keeps nor changes it: o is a pointer only so that the
	// call's frames stay small (see Endpoint.call).
	Call(ctx context.Context, args json.RawMessage, o *Origin) (*mcp.CallToolResult, error)
}

// UnknownTool is the protocol error for a name the plan (or the view) does
// not expose: invalid params, as the MCP spec asks, with the name cut short.
func UnknownTool(rt *Runtime, name string) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf(rt.Messages.UnknownTool, Truncate(name, 128))}
}

// Truncate keeps echoed client text short: a 100 KB name is never sent back
// whole.
func Truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 { // not the start of a UTF-8 sequence
		n--
	}
	return s[:n] + "…"
}
