package model

import "github.com/modelcontextprotocol/go-sdk/mcp"

// Hint is a tool annotation the server may leave unsaid. The MCP spec gives
// an unsaid hint a default (destructiveHint and openWorldHint default to
// true), so an unsaid hint is not the same as false.
type Hint int8

const (
	// Unset means the server did not say.
	Unset Hint = iota
	// Yes means the server said true.
	Yes
	// No means the server said false.
	No
)

// hintOf is the Hint of an optional wire boolean.
func hintOf(b *bool) Hint {
	switch {
	case b == nil:
		return Unset
	case *b:
		return Yes
	default:
		return No
	}
}

// wire is the optional wire boolean of h: nil, true or false, freshly
// allocated.
func (h Hint) wire() *bool {
	if h == Unset {
		return nil
	}
	b := h == Yes
	return &b
}

// Or resolves h with the default the spec gives when it is unset.
func (h Hint) Or(def bool) bool {
	if h == Unset {
		return def
	}
	return h == Yes
}

// String returns "unset", "true" or "false".
func (h Hint) String() string {
	switch h {
	case Yes:
		return "true"
	case No:
		return "false"
	}
	return "unset"
}

// Annotations are a tool's hints to the client about what calling it does.
// It is a plain value: copying it copies everything.
type Annotations struct {
	// Title is a human-readable title for the tool.
	Title string
	// ReadOnly says the tool does not modify its environment.
	ReadOnly bool
	// Destructive says the tool may destroy (delete, overwrite) rather
	// than only add. Unset means true, as the spec says.
	Destructive Hint
	// Idempotent says repeating a call with the same arguments has no
	// further effect.
	Idempotent bool
	// OpenWorld says the tool reaches outside the server's own domain.
	// Unset means true, as the spec says.
	OpenWorld Hint
}

// IsDestructive reports what a client must assume: a tool that is not
// read-only is destructive unless it says it is not.
func (a Annotations) IsDestructive() bool { return !a.ReadOnly && a.Destructive.Or(true) }

// IsOpenWorld reports what a client must assume: open unless said closed.
func (a Annotations) IsOpenWorld() bool { return a.OpenWorld.Or(true) }

// AnnotationsFromWire converts the go-sdk's annotations. It returns nil for
// nil: a tool without annotations is not a tool with empty ones.
func AnnotationsFromWire(w *mcp.ToolAnnotations) *Annotations {
	if w == nil {
		return nil
	}
	return &Annotations{
		Title:       w.Title,
		ReadOnly:    w.ReadOnlyHint,
		Destructive: hintOf(w.DestructiveHint),
		Idempotent:  w.IdempotentHint,
		OpenWorld:   hintOf(w.OpenWorldHint),
	}
}

// AnnotationsToWire converts back to the go-sdk's annotations, nil for nil.
// AnnotationsToWire(AnnotationsFromWire(w)) equals w.
func AnnotationsToWire(a *Annotations) *mcp.ToolAnnotations {
	if a == nil {
		return nil
	}
	return &mcp.ToolAnnotations{
		Title:           a.Title,
		ReadOnlyHint:    a.ReadOnly,
		DestructiveHint: a.Destructive.wire(),
		IdempotentHint:  a.Idempotent,
		OpenWorldHint:   a.OpenWorld.wire(),
	}
}

// copyAnnotations is a fresh copy of a, or nil.
func copyAnnotations(a *Annotations) *Annotations {
	if a == nil {
		return nil
	}
	c := *a
	return &c
}
