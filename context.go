package vurb

import (
	"context"
	"encoding/json"
	"log/slog"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Call is what middleware and handlers know about the call in flight. It is
// created once per call and must not be kept after the call returns.
type Call struct {
	// Tool is the authored tool name ("projects", "admin").
	Tool string
	// Action is the action's key within its tool ("list", "users.list").
	Action string
	// Key is the canonical dotted key ("projects.list",
	// "admin.users.list"), the same in either exposition.
	Key string
	// Name is the wire name the client called ("projects_list" in flat
	// exposition, "projects" in grouped).
	Name string
	// Input is a pointer to the decoded, validated input struct (*In).
	Input any
	// Arguments are the raw arguments as received.
	Arguments json.RawMessage

	id            uint64
	session       *mcp.ServerSession
	progressToken any
	logger        *slog.Logger
	app           *App
}

// RequestID identifies the call in logs, events and panic references. The
// SDK does not hand tool handlers the JSON-RPC id, so vurb numbers every
// call of the app, served or in-process; the text is made only when asked
// for, keeping it off the hot path.
func (c *Call) RequestID() string { return formatID(c.id) }

func formatID(id uint64) string { return strconv.FormatUint(id, 36) }

// Session returns the MCP session the call arrived on, or nil for an
// in-process App.Call.
func (c *Call) Session() *mcp.ServerSession { return c.session }

// Logger returns the app's logger with the call's request id, tool and
// action bound, so every line a handler logs can be joined to its call.
func (c *Call) Logger() *slog.Logger {
	if c.logger == nil {
		c.logger = c.app.cfg.logger.With("request_id", c.RequestID(), "tool", c.Tool, "action", c.Action)
	}
	return c.logger
}

// callContext carries the Call in the context without a separate
// context.WithValue allocation: one value holds both.
type callContext struct {
	context.Context
	call Call
}

type callKey struct{}

// Value returns the call for callKey and defers every other key.
func (c *callContext) Value(key any) any {
	if key == (callKey{}) {
		return &c.call
	}
	return c.Context.Value(key)
}

// CallFrom returns the call in flight, or nil when ctx does not belong to a
// vurb call. Handlers receive only their typed input; CallFrom is how they
// learn the rest (tool, action, request id, session).
func CallFrom(ctx context.Context) *Call {
	c, _ := ctx.Value(callKey{}).(*Call)
	return c
}

// Logger returns the call's logger (see Call.Logger), or slog.Default()
// outside a call.
func Logger(ctx context.Context) *slog.Logger {
	if c := CallFrom(ctx); c != nil {
		return c.Logger()
	}
	return slog.Default()
}
