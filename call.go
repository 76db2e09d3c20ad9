package vurb

import (
	"context"
	"log/slog"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/engine"
)

// Call is what middleware and handlers know about the call in flight. It
// is made once per call and must not be kept after the call returns.
//
// Its exported fields are for reading: Tool, Action, Key and Name identify
// the action ("projects", "list", "projects.list" and the wire name the
// client called: "projects_list" in flat exposition, "projects" in
// grouped); Input is a pointer to the decoded, validated input struct
// (*In); Arguments are the raw arguments as received. vurb never reads them
// back: its logger, events, error texts and routing come from the compiled
// action, so a middleware that rewrites a field changes nothing vurb does.
// To hand values to inner layers, pass them in the context.
type Call engine.Call

// RequestID identifies the call in logs, events and panic references. The
// SDK does not hand tool handlers the JSON-RPC id, so vurb numbers every
// call of the app, served or in-process; the text is made only when asked
// for, keeping it off the hot path.
func (c *Call) RequestID() string { return (*engine.Call)(c).RequestID() }

// Session returns the MCP session the call arrived on, or nil for an
// in-process App.Call.
func (c *Call) Session() *mcp.ServerSession { return (*engine.Call)(c).Session() }

// CallFrom returns the call in flight, or nil when ctx does not belong to a
// vurb call. Handlers receive only their typed input; CallFrom is how they
// learn the rest (tool, action, request id, session).
func CallFrom(ctx context.Context) *Call {
	return (*Call)(engine.CallFrom(ctx))
}

// Logger returns the logger of the call ctx belongs to: the app's logger
// (WithLogger) with the call's request id, tool and action bound, so every
// line a handler or a middleware logs can be joined to its call. It is made
// on first use, is the same for the whole call and is safe to use from
// several goroutines. Outside a call it is slog.Default().
func Logger(ctx context.Context) *slog.Logger {
	if c := engine.CallFrom(ctx); c != nil {
		return c.Logger()
	}
	return slog.Default()
}

// Tags are the action's tags, with its group's and its tool's: what a
// middleware decides on without switching over action keys. Shared: do not
// modify.
func (c *Call) Tags() []string { return (*engine.Call)(c).Tags() }

// Annotations are the action's own annotations (read-only, destructive,
// idempotent, open-world), whatever its exposition merges into the wire
// tool's. Shared: do not modify.
func (c *Call) Annotations() *mcp.ToolAnnotations { return (*engine.Call)(c).Annotations() }

// Refer says how the model calls the action key ("tickets.list") under
// the app's exposition, for a handler's text that sends the model to
// another action: "tickets_list" in flat exposition, `tickets with
// {"action":"list"}` in grouped. It reports false when the app has no such
// action. A handler that writes "call tickets_list" by hand names a tool
// that does not exist once the app is grouped.
func (c *Call) Refer(key string) (string, bool) { return (*engine.Call)(c).Refer(key) }

// Scopes are the OAuth scopes the action requires (see RequireScopes),
// which the pipeline has checked before the middleware runs. Shared: do not
// modify.
func (c *Call) Scopes() []string { return (*engine.Call)(c).Scopes() }

// Progress reports progress on the call in flight with a
// notifications/progress message, when the client asked for it by sending a
// progress token. Without a token or a session it does nothing: reporting
// progress is always safe. total may be 0 when unknown.
func Progress(ctx context.Context, progress, total float64, message string) error {
	c := engine.CallFrom(ctx)
	if c == nil || c.ProgressToken() == nil || c.Session() == nil {
		return nil
	}
	return c.Session().NotifyProgress(ctx, &mcp.ProgressNotificationParams{
		ProgressToken: c.ProgressToken(),
		Progress:      progress,
		Total:         total,
		Message:       message,
	})
}

// Log sends a notifications/message log entry to the client. The session
// drops entries below the level the client chose with logging/setLevel
// (none until it chooses). Without a session it does nothing; use
// Logger(ctx) for the server's own log.
func Log(ctx context.Context, level mcp.LoggingLevel, data any) error {
	c := engine.CallFrom(ctx)
	if c == nil {
		return nil
	}
	if o := c.Origin(); o.Detached && o.LogLevel == "" {
		return nil // the client asked for no log messages: its session sends none
	}
	if c.Session() == nil {
		return nil
	}
	return c.Session().Log(ctx, &mcp.LoggingMessageParams{Level: level, Logger: c.Tool, Data: data})
}
