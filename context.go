package vurb

import (
	"context"
	"encoding/json"
	"log/slog"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

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

// callContext is the context a call's middleware and handler receive. It
// carries the Call without a separate context.WithValue, and it carries the
// call's deadline lazily: a context.WithDeadline costs a timer, a channel
// and five allocations, about as much as decoding the arguments, and most
// handlers never look. The real context is made the first time something
// asks for Done, Err past the deadline, or any value but the call: from
// then on every method is that context's.
type callContext struct {
	parent   context.Context
	deadline time.Time
	call     Call

	state  atomic.Uint32 // lazy, ended or live
	mu     sync.Mutex    // serialises materialize
	inner  context.Context
	cancel context.CancelFunc
}

const (
	ctxLazy  uint32 = iota // nothing made yet
	ctxEnded               // the call returned before anything was made
	ctxLive                // inner and cancel are set
)

// newCallContext returns the context of a call with the given deadline.
func newCallContext(parent context.Context, deadline time.Time, call Call) *callContext {
	return &callContext{parent: parent, deadline: deadline, call: call}
}

// current returns the real context, making it on first use.
func (c *callContext) current() context.Context {
	if c.state.Load() == ctxLive {
		return c.inner
	}
	return c.materialize()
}

func (c *callContext) materialize() context.Context {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.state.Load() == ctxLive {
		return c.inner
	}
	c.inner, c.cancel = context.WithDeadline(c.parent, c.deadline)
	if !c.state.CompareAndSwap(ctxLazy, ctxLive) {
		// The call has returned: its context is over, as it would have
		// been had it been made up front and cancelled then.
		c.cancel()
		c.state.Store(ctxLive)
	}
	return c.inner
}

// end is called once, when the call returns: a handler still running (one
// that outlived its deadline) then sees its context cancelled.
func (c *callContext) end() {
	if c.state.CompareAndSwap(ctxLazy, ctxEnded) {
		return // never made; materialize will make it cancelled
	}
	c.cancel() // live: CompareAndSwap failed, so inner and cancel are set
}

// Deadline is the earlier of the call's deadline and the parent's.
func (c *callContext) Deadline() (time.Time, bool) {
	if d, ok := c.parent.Deadline(); ok && d.Before(c.deadline) {
		return d, true
	}
	return c.deadline, true
}

// Done makes the real context: only it can close a channel on time.
func (c *callContext) Done() <-chan struct{} { return c.current().Done() }

// Err answers without making the real context while nothing has ended:
// Done is then not closed either, which is what the contract asks.
func (c *callContext) Err() error {
	if c.state.Load() == ctxLazy && c.parent.Err() == nil && time.Until(c.deadline) > 0 {
		return nil
	}
	return c.current().Err()
}

type callKey struct{}

// Value returns the call for callKey. Other keys go to the real context
// once it exists, so that context.Cause and contexts derived from this one
// find its cancellation; before that they go to the parent, which holds
// every value the real context would.
func (c *callContext) Value(key any) any {
	if key == (callKey{}) {
		return &c.call
	}
	if c.state.Load() == ctxLive {
		return c.inner.Value(key)
	}
	return c.parent.Value(key)
}

// String names the context in panics and debug output.
func (c *callContext) String() string {
	return "vurb.callContext(" + c.call.Key + ")"
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
