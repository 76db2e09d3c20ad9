package vurb

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// WithRequestMiddleware wraps every request the app's servers receive, of
// any method (tools/call, tools/list, prompts/get, resources/read,
// initialize, ...), on every transport: stdio, HTTP sessions and
// sessionless requests, the fast lane included. It is the go-sdk's own
// middleware shape, so what is written for the SDK works here, and it is
// where one rule covers everything the server exposes: an authorization
// check for prompts and resources as for tools, a trace span per request.
//
// The first middleware runs first. The context a middleware passes on
// reaches the handlers (vurb.Logger, CallerFrom and the span of a tracer
// all read it). req.GetExtra() carries the verified token and the HTTP
// headers; req.GetParams().GetMeta() the request's _meta. Panics are
// contained as a handler's are. Tool-level concerns (an action's tags,
// scopes, annotations) are better placed in App.Use, whose Call knows the
// action; an in-process App.Call does not pass through this chain.
//
// A sessionless request answered by the fast lane has no session: there,
// req.GetSession() holds a nil *mcp.ServerSession, so check it before use
// (CallerFrom's SessionID is "" alike). The tasks extension's own methods
// (tasks/get, tasks/update, tasks/cancel) are not wrapped; a tools/call
// that starts a task is.
func WithRequestMiddleware(mw ...mcp.Middleware) Option {
	for i, m := range mw {
		if m == nil {
			panic(fmt.Sprintf("vurb: nil middleware at position %d of WithRequestMiddleware", i))
		}
	}
	return func(c *config) { c.requestMW = append(c.requestMW, mw...) }
}

// wrapMethod composes mw around h, the first outermost.
func wrapMethod(h mcp.MethodHandler, mw []mcp.Middleware) mcp.MethodHandler {
	for i := len(mw) - 1; i >= 0; i-- {
		h = mw[i](h)
	}
	return h
}

// WithLogContext adds attributes to every call's logger (Call.Logger,
// vurb.Logger), read from the context the call arrived with when the
// logger is first made: a trace and span id put there by a request
// middleware, so that logs join traces. Several WithLogContext options all
// contribute, in the order given.
func WithLogContext(attrs func(ctx context.Context) []slog.Attr) Option {
	return func(c *config) {
		prev := c.logContext
		switch {
		case attrs == nil:
		case prev == nil:
			c.logContext = attrs
		default:
			c.logContext = func(ctx context.Context) []slog.Attr { return append(prev(ctx), attrs(ctx)...) }
		}
	}
}
