package vurb

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/edge"
)

// ActionInfo is what a visibility rule knows of an action: everything
// that decides who may see it, without its handler.
type ActionInfo struct {
	Tool   string // "projects"
	Action string // "list", "users.list"; "" for a one-action tool
	Key    string // "projects.list"
	// Tags are the action's, its group's and its tool's.
	Tags []string
	// Annotations are the action's own (read-only, destructive, ...).
	Annotations *mcp.ToolAnnotations
	// Scopes are those RequireScopes asks of its callers.
	Scopes []string
}

// edgeVisible is visible as the serving edge calls it (nil stays nil).
func edgeVisible(visible func(string, ActionInfo) bool) func(string, edge.ActionInfo) bool {
	if visible == nil {
		return nil
	}
	return func(class string, a edge.ActionInfo) bool { return visible(class, ActionInfo(a)) }
}
