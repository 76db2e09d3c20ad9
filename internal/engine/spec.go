package engine

import (
	"encoding/json"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/schema"
)

// Decoder decodes and validates one call's arguments into a fresh input
// value and returns a pointer to it, ready for Call.Input; opts.Skip names
// a grouped tool's discriminator.
type Decoder func(data []byte, opts schema.DecodeOptions) (any, error)

// ToolSpec is one authored tool, lowered: plain values the compiler reads
// and never writes.
type ToolSpec struct {
	Name        string
	Description string
	// Groups is empty for a tool whose actions are direct.
	Groups []GroupSpec
	// Common is the codec of the fields every action shares, or nil.
	Common *schema.Codec
	// Discriminator names the grouped exposition's action field.
	Discriminator string
	// Annotations replace the grouped tool's aggregated ones when set.
	Annotations *mcp.ToolAnnotations
	// TOONDescription writes the grouped description in TOON.
	TOONDescription bool
	// Actions are in declaration order, groups in order.
	Actions []*ActionSpec
}

// GroupSpec is a module of a hierarchical tool.
type GroupSpec struct {
	Name        string
	Description string
}

// ActionSpec is one action, lowered.
type ActionSpec struct {
	Key         string // within its tool: "list" or "users.list"
	Description string
	Title       string
	Tags        []string // the action's, its group's and its tool's
	ReadOnly    bool
	Destructive bool
	Idempotent  bool
	OpenWorld   *bool
	// Annotations replace the implied ones when set.
	Annotations *mcp.ToolAnnotations

	In           *schema.Codec
	OutputSchema json.RawMessage // nil when the result has none
	// Headers maps input properties to the HTTP header names their values
	// are mirrored into (x-mcp-header).
	Headers map[string]string
	Decode  Decoder
	// Handler is the whole middleware chain ending in the typed handler,
	// composed once by the definition layer.
	Handler Handler
	Timeout time.Duration
	Sync    SyncRule
	// Scopes must all be in the caller's token for a call to run: the
	// action's, its group's, its tool's and its app's.
	Scopes []string
	// Limits are its rate limits, concurrency cap and output cap (see
	// limits.go).
	Limits Limits
	// Hint holds words tool search matches and no listing shows.
	Hint string
	// AlwaysLoad lists the action's tool under tool search.
	AlwaysLoad bool
	// Finder marks search_tools and call_tool: listed under tool search,
	// shown to every caller, never found by a search.
	Finder bool
	// Flow binds the action to a workflow (gate.go); nil for none.
	Flow *FlowSpec
}

// SyncRule is the state-sync behaviour resolved for one action.
type SyncRule struct {
	// Cache is the directive its description carries ("immutable",
	// "no-store"), or "".
	Cache string
	// Invalidates lists the key patterns a successful call makes stale.
	Invalidates []string
	// Notice is the text block a successful call adds; "" for none.
	Notice string
}
