package vurb

import (
	"github.com/vurb-go/vurb/internal/engine"
	"github.com/vurb-go/vurb/schema"
)

// Messages are the texts one app's calls answer with when they fail: each
// says what went wrong and what the model can do about it. An app takes its
// Messages once, at New, and its plan reads them without locks while it
// serves, so two apps in one process word their errors apart and nothing a
// program changes later reaches a call in flight. Start from
// DefaultMessages, or set only the fields to reword and pass them to
// WithMessages. Each field's format verbs are noted; keep them when
// rewording.
type Messages struct {
	// UnknownTool is the protocol error for a tool name the server does
	// not expose: %q, the name.
	UnknownTool string
	// DiscriminatorMissing is a grouped tool's answer to a call without
	// its discriminator: %s, the discriminator field's name; %s, the
	// available actions.
	DiscriminatorMissing string
	// DiscriminatorNotString answers a discriminator that is not a
	// string: %s, the field's name; %s, the JSON kind received; %s, the
	// available actions.
	DiscriminatorNotString string
	// UnknownAction answers an action the tool does not have: %q, the
	// action received; %s, the available actions.
	UnknownAction string
	// InvalidArguments follows the call's prefix when its arguments are
	// refused: %s, the problems, every one of them, worded by Schema.
	InvalidArguments string
	// Timeout follows the call's prefix when its deadline passes: %s, the
	// deadline.
	Timeout string
	// Internal follows the call's prefix when the server failed, not the
	// call (a panic, a result that cannot be encoded): %s, a reference
	// that joins the answer to the server log holding the details, which
	// never reach the client.
	Internal string
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
	// Schema words the problems found in a call's arguments, and the
	// notes a grouped tool's schema carries.
	Schema *schema.Messages
}

// DefaultMessages returns a fresh copy of the built-in texts, Schema
// included, for the caller to adjust and pass to WithMessages.
func DefaultMessages() Messages {
	return Messages{
		UnknownTool:            "unknown tool %q",
		DiscriminatorMissing:   "%s is required. Available: %s",
		DiscriminatorNotString: "%s must be a string, got %s. Available: %s",
		UnknownAction:          "Unknown action %q. Available: %s",
		InvalidArguments:       "invalid arguments: %s",
		Timeout:                "timed out after %s; the operation may still complete on the server, so check its effect before retrying",
		Internal:               "internal error (ref %s); the server has logged the details",
		Busy:                   engine.DefaultBusy,
		MissingScopes:          engine.DefaultMissingScopes,
		RateLimited:            engine.DefaultRateLimited,
		AtCapacity:             engine.DefaultAtCapacity,
		Truncated:              engine.DefaultTruncated,
		Schema:                 schema.DefaultMessages(),
	}
}
