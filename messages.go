package vurb

import (
	"github.com/vurb-go/vurb/internal/engine"
	"github.com/vurb-go/vurb/schema"
)

// Texts a model reads when a call fails. Each says what went wrong and what
// the model can do about it; format verbs are documented per message.
//
// These variables are the defaults DefaultMessages reads: an app takes its
// texts once, at New (from WithMessages, else from these variables), so
// changing a variable affects apps made afterwards and never a call in
// flight.
//
// Deprecated: a process-wide variable cannot tell two apps apart; read
// DefaultMessages and reword texts with WithMessages.
var (
	// MsgUnknownTool is the protocol error for a tool name the server does
	// not expose (%q: the name).
	//
	// Deprecated: set Messages.UnknownTool with WithMessages.
	MsgUnknownTool = "unknown tool %q"
	// MsgDiscriminatorMissing: the discriminator field's name, then the
	// available actions.
	//
	// Deprecated: set Messages.DiscriminatorMissing with WithMessages.
	MsgDiscriminatorMissing = "%s is required. Available: %s"
	// MsgDiscriminatorNotString: the discriminator field's name, the JSON
	// kind received, then the available actions.
	//
	// Deprecated: set Messages.DiscriminatorNotString with WithMessages.
	MsgDiscriminatorNotString = "%s must be a string, got %s. Available: %s"
	// MsgUnknownAction: the action received (%q), then the available
	// actions.
	//
	// Deprecated: set Messages.UnknownAction with WithMessages.
	MsgUnknownAction = "Unknown action %q. Available: %s"
	// MsgInvalidArguments follows the call's prefix: the validation
	// problems, every one of them.
	//
	// Deprecated: set Messages.InvalidArguments with WithMessages.
	MsgInvalidArguments = "invalid arguments: %s"
	// MsgTimeout follows the call's prefix: the deadline.
	//
	// Deprecated: set Messages.Timeout with WithMessages.
	MsgTimeout = "timed out after %s; the operation may still complete on the server, so check its effect before retrying"
	// MsgInternal follows the call's prefix when the server failed, not the
	// call (a panic, a result that cannot be encoded): a reference id joins
	// it to the server log that holds the details, which never reach the
	// client.
	//
	// Deprecated: set Messages.Internal with WithMessages.
	MsgInternal = "internal error (ref %s); the server has logged the details"
	// MsgEncodeFailed is the tool error of the JSON and TOON helpers when
	// the value cannot be encoded.
	//
	// Deprecated: returned by a handler, such a result now answers with
	// Messages.Internal and a reference, like every internal error; this
	// text remains only where no call sees the result.
	MsgEncodeFailed = "internal error: the result could not be encoded; the server has logged the details"
)

// Messages are the texts one app's calls answer with when they fail, read
// without locks while the app serves. Format verbs are those of the Msg
// variables of the same names.
type Messages struct {
	UnknownTool            string
	DiscriminatorMissing   string
	DiscriminatorNotString string
	UnknownAction          string
	InvalidArguments       string
	Timeout                string
	Internal               string
	// Busy follows the call's prefix when too many handlers are running
	// (see WithMaxRunning): %d, the bound reached.
	Busy string
	// MissingScopes follows the call's prefix when the caller's token
	// lacks scopes the action requires (see RequireScopes): %s, the
	// scopes missing, space-separated.
	MissingScopes string
	// RateLimited follows the call's prefix when a rate limit refuses the
	// call (see RateLimit): %s, the rate; %s, how long to wait before a
	// retry can succeed.
	RateLimited string
	// AtCapacity follows the call's prefix when the action's concurrency
	// cap refuses the call (see ActionDef.MaxConcurrent): %d, the cap; %s,
	// how long the call waited for a slot.
	AtCapacity string
	// Truncated follows the call's prefix in the text block that ends a
	// result cut to its cap (see ActionDef.MaxOutput): %d, the bytes of
	// text kept; %d, the bytes the result had.
	Truncated string
	// Schema words the problems found in a call's arguments.
	Schema *schema.Messages
}

// DefaultMessages returns a fresh copy of the texts in the Msg variables
// of this package and of package schema, to adjust and pass to
// WithMessages.
func DefaultMessages() Messages {
	return Messages{
		UnknownTool:            MsgUnknownTool,
		DiscriminatorMissing:   MsgDiscriminatorMissing,
		DiscriminatorNotString: MsgDiscriminatorNotString,
		UnknownAction:          MsgUnknownAction,
		InvalidArguments:       MsgInvalidArguments,
		Timeout:                MsgTimeout,
		Internal:               MsgInternal,
		Busy:                   engine.DefaultBusy,
		MissingScopes:          engine.DefaultMissingScopes,
		RateLimited:            engine.DefaultRateLimited,
		AtCapacity:             engine.DefaultAtCapacity,
		Truncated:              engine.DefaultTruncated,
		Schema:                 schema.DefaultMessages(),
	}
}

// WithMessages sets the app's texts. Empty fields (and a nil Schema) keep
// the defaults, so an app can reword one message alone:
//
//	m := vurb.Messages{Timeout: "took longer than %s; try a smaller request"}
//	app := vurb.New(vurb.WithMessages(m))
func WithMessages(m Messages) Option {
	return func(c *config) {
		d := &c.messages
		for _, f := range []struct {
			dst *string
			v   string
		}{
			{&d.UnknownTool, m.UnknownTool},
			{&d.DiscriminatorMissing, m.DiscriminatorMissing},
			{&d.DiscriminatorNotString, m.DiscriminatorNotString},
			{&d.UnknownAction, m.UnknownAction},
			{&d.InvalidArguments, m.InvalidArguments},
			{&d.Timeout, m.Timeout},
			{&d.Internal, m.Internal},
			{&d.Busy, m.Busy},
			{&d.MissingScopes, m.MissingScopes},
			{&d.RateLimited, m.RateLimited},
			{&d.AtCapacity, m.AtCapacity},
			{&d.Truncated, m.Truncated},
		} {
			if f.v != "" {
				*f.dst = f.v
			}
		}
		if m.Schema != nil {
			d.Schema = m.Schema
		}
	}
}
