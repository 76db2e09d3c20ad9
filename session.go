package vurb

import (
	"context"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/engine"
)

// ErrNoSession is returned by the session powers that need a client to
// answer (sampling, elicitation) when the call has none: an in-process
// App.Call, or a context that is not a vurb call's.
var ErrNoSession = errors.New("vurb: no client session: sampling and elicitation need a call served to an MCP client, not an in-process App.Call")

// Progress reports progress on the call in flight with a
// notifications/progress message, when the client asked for it by sending a
// progress token. Without a token or a session it does nothing: reporting
// progress is always safe. total may be 0 when unknown.
func Progress(ctx context.Context, progress, total float64, message string) error {
	c := engine.CallFrom(ctx)
	if c == nil || c.Session() == nil || c.ProgressToken() == nil {
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
	if c == nil || c.Session() == nil {
		return nil
	}
	return c.Session().Log(ctx, &mcp.LoggingMessageParams{Level: level, Logger: c.Tool, Data: data})
}

// Sample asks the client's model for a completion (sampling/createMessage).
// It returns ErrNoSession outside a served call, and the client's error when
// it declines or does not support sampling.
//
// Deprecated: use AskSampling, which works for clients of every protocol
// revision. Sample sends a server-initiated request on the session, which
// only handshake-era clients accept: for a 2026-07-28 client the go-sdk
// refuses it with an error.
func Sample(ctx context.Context, params *mcp.CreateMessageParams) (*mcp.CreateMessageResult, error) {
	c := engine.CallFrom(ctx)
	if c == nil || c.Session() == nil {
		return nil, ErrNoSession
	}
	return c.Session().CreateMessage(ctx, params)
}

// Elicit asks the client's user for input (elicitation/create). It returns
// ErrNoSession outside a served call, and the client's error when it does
// not support elicitation.
//
// Deprecated: use Ask (a form from a struct) or AskElicitation, which work
// for clients of every protocol revision. Elicit sends a server-initiated
// request on the session, which only handshake-era clients accept: for a
// 2026-07-28 client the go-sdk refuses it with an error.
func Elicit(ctx context.Context, params *mcp.ElicitParams) (*mcp.ElicitResult, error) {
	c := engine.CallFrom(ctx)
	if c == nil || c.Session() == nil {
		return nil, ErrNoSession
	}
	return c.Session().Elicit(ctx, params)
}
