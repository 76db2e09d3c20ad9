package fault

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/engine"
)

// Tool handlers and their middleware run on vurb's workers, which recover
// their panics (internal/engine). Everything else a server runs for a
// client (prompt and resource handlers, completers, the subscription
// hooks, the Ask rounds around them, the go-sdk's own handlers and those a
// user passes through WithServerOptions) runs on the go-sdk's request
// goroutine, which recovers nothing: one panic there ended the process
// and dropped every client. Contain is the outermost receiving
// middleware of every server vurb makes, so that none of them can; the
// lane and the tasks front, which run calls of their own, recover what
// escapes the engine there through the same Panicked.

// Panicked is the edge's one answer to a panic p of what it ran for a
// client's method on target: an internal error whose reference joins it
// to the log entry, which alone holds the panic and its stack. The
// reference is the runtime's (Runtime.NewRef), from the sequence of
// request ids, as the engine's for a tool handler's own panic: one
// scheme, whichever path the call came by.
func Panicked(rt *engine.Runtime, method, target string, p any) *jsonrpc.Error {
	ref := rt.NewRef()
	rt.Logger.Error("vurb: handler panicked", "ref", ref, "method", method, "target", target,
		"panic", fmt.Sprint(p), "stack", string(debug.Stack()))
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf(rt.Messages.Internal, ref)}
}

// ToolTarget names a tool for the log, as target does.
func ToolTarget(name string) string { return "tool " + engine.Truncate(name, 128) }

// Contain recovers a panic in any request or notification handler
// of a server into Panicked's answer.
func Contain(rt *engine.Runtime) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (res mcp.Result, err error) {
			defer func() {
				if p := recover(); p != nil {
					res, err = nil, Panicked(rt, method, target(req), p)
				}
			}()
			return next(ctx, method, req)
		}
	}
}

// target names what a request was about, for the log: a prompt, a
// resource, a completion's reference.
func target(req mcp.Request) string {
	if req == nil {
		return ""
	}
	switch p := req.GetParams().(type) {
	case *mcp.GetPromptParams:
		return "prompt " + engine.Truncate(p.Name, 128)
	case *mcp.ReadResourceParams:
		return "resource " + engine.Truncate(p.URI, 256)
	case *mcp.SubscribeParams:
		return "resource " + engine.Truncate(p.URI, 256)
	case *mcp.UnsubscribeParams:
		return "resource " + engine.Truncate(p.URI, 256)
	case *mcp.CompleteParams:
		if p.Ref != nil {
			return "completion of " + p.Ref.Type + " " + engine.Truncate(p.Ref.Name+p.Ref.URI, 256)
		}
	case *mcp.CallToolParamsRaw:
		return ToolTarget(p.Name)
	}
	return ""
}

// HandlerError is what a client reads of an error a prompt or resource
// handler returned: a protocol error (*jsonrpc.Error, such as
// mcp.ResourceNotFoundError) as it is; any other is an internal error
// with a reference, its text (which may name a server path or a database
// host) in the app's log. JSON-RPC has no error code 0.
func HandlerError(rt *engine.Runtime, target string, err error) error {
	var rpcErr *jsonrpc.Error
	if errors.As(err, &rpcErr) {
		return rpcErr
	}
	ref := rt.NewRef()
	rt.Logger.Error("vurb: handler failed", "ref", ref, "target", target, "err", err.Error())
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf(rt.Messages.Internal, ref)}
}
