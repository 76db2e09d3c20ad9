package vurbotel

import "go.opentelemetry.io/otel/attribute"

// vurb's own attributes, for what it knows beyond the protocol. The
// conventions own the mcp.* and gen_ai.* namespaces; these stay in vurb's.
const (
	// actionKey is the canonical dotted key of the action called
	// ("projects.list"): in grouped exposition the tool name alone
	// ("projects") does not say which action ran.
	actionKey = attribute.Key("vurb.action.key")
	// outcomeKey is how a tool call ended, as observe.Event.Outcome says
	// ("none" on success, "validation", "handler", "panic", ...).
	outcomeKey = attribute.Key("vurb.outcome")
	// requestIDKey is vurb's id of the call, the request_id of its log
	// lines and panic references. The go-sdk does not hand middleware the
	// JSON-RPC id, so jsonrpc.request.id is not recorded.
	requestIDKey = attribute.Key("vurb.request.id")
	// workflowNameKey, workflowFromKey and workflowToKey are a workflow
	// move's machine and states (observe.WorkflowMoved); the states are
	// the app's declared words, never a client's.
	workflowNameKey = attribute.Key("vurb.workflow.name")
	workflowFromKey = attribute.Key("vurb.workflow.from")
	workflowToKey   = attribute.Key("vurb.workflow.to")
)

// workflowMovedEvent names the span event of a workflow move.
const workflowMovedEvent = "vurb.workflow.moved"

// maxAttributeLength bounds, in bytes, every string a client chose that is
// recorded (a resource URI, a session id, an error message that echoes
// the request): a client sends strings of any length, and a span keeps
// what it is given until it is exported.
const maxAttributeLength = 256
