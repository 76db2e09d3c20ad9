package vurb

// Texts a model reads when a call fails. They are variables so tests assert
// them and an application can translate them; each says what went wrong and
// what the model can do about it. Format verbs are documented per message.
var (
	// MsgUnknownTool is the protocol error for a tool name the server does
	// not expose (%q: the name).
	MsgUnknownTool = "unknown tool %q"
	// MsgDiscriminatorMissing: the discriminator field's name, then the
	// available actions.
	MsgDiscriminatorMissing = "%s is required. Available: %s"
	// MsgDiscriminatorNotString: the discriminator field's name, the JSON
	// kind received, then the available actions.
	MsgDiscriminatorNotString = "%s must be a string, got %s. Available: %s"
	// MsgUnknownAction: the action received (%q), then the available
	// actions.
	MsgUnknownAction = "Unknown action %q. Available: %s"
	// MsgInvalidArguments follows the call's prefix: the validation
	// problems, every one of them.
	MsgInvalidArguments = "invalid arguments: %s"
	// MsgTimeout follows the call's prefix: the deadline.
	MsgTimeout = "timed out after %s; the operation may still complete on the server, so check its effect before retrying"
	// MsgInternal follows the call's prefix when the server failed, not the
	// call (a panic, a result that cannot be encoded): a reference id joins
	// it to the server log that holds the details, which never reach the
	// client.
	MsgInternal = "internal error (ref %s); the server has logged the details"
	// MsgEncodeFailed is the tool error of the JSON and TOON helpers when
	// the value cannot be encoded.
	MsgEncodeFailed = "internal error: the result could not be encoded; the server has logged the details"
)
