package describe

import "github.com/modelcontextprotocol/go-sdk/mcp"

// ForAction returns the annotations of one action exposed as its own tool.
// destructiveHint is always stated, false included, because the MCP default
// is true: a read that left it out would look destructive to a client.
func ForAction(a Action) *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{
		Title:           a.Title,
		ReadOnlyHint:    a.ReadOnly,
		DestructiveHint: boolPtr(a.Destructive && !a.ReadOnly),
		IdempotentHint:  a.Idempotent,
		OpenWorldHint:   a.OpenWorld,
	}
}

// Aggregate returns the annotations of a grouped tool from its actions',
// leaning to caution: destructive if any action is, read-only only if all
// are, idempotent only if all are, open-world if any is (and closed only if
// all say so).
func Aggregate(actions []Action) *mcp.ToolAnnotations {
	readOnly, idempotent, destructive := len(actions) > 0, len(actions) > 0, false
	var open *bool
	allClosed := len(actions) > 0
	for _, a := range actions {
		ann := ForAction(a)
		readOnly = readOnly && ann.ReadOnlyHint
		idempotent = idempotent && ann.IdempotentHint
		destructive = destructive || *ann.DestructiveHint
		switch {
		case a.OpenWorld == nil:
			allClosed = false
		case *a.OpenWorld:
			open, allClosed = boolPtr(true), false
		}
	}
	if open == nil && allClosed {
		open = boolPtr(false)
	}
	return &mcp.ToolAnnotations{
		ReadOnlyHint:    readOnly,
		DestructiveHint: boolPtr(destructive),
		IdempotentHint:  idempotent,
		OpenWorldHint:   open,
	}
}

func boolPtr(b bool) *bool { return &b }
