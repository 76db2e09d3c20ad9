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

// WithVisibility gives each kind of caller a tool list of its own. class
// names the caller's kind ("admin", a tenant's plan, "" for anyone), read
// from the request's token and headers; visible says whether callers of a
// class see an action. A hidden action is absent from the caller's
// tools/list and is an unknown tool (or, in a grouped tool, an unknown
// action) when called, exactly as if a tag filter had removed it.
//
// visible runs once per class and action, the first time a caller of the
// class is seen; after that a request costs class and a map lookup, and
// nothing is recompiled. Keep the number of classes small (roles, plans,
// not user ids), and read the class from what the server verified (a claim
// of c.Token) rather than from what a client may write freely: vurb keeps
// the views of the first 1,024 classes it sees and computes any others on
// every request.
//
// Scopes (RequireScopes) filter lists on their own, with or without
// WithVisibility: an action whose scopes the caller's token lacks is absent
// from its tools/list, and a call of it is refused naming the scopes.
func WithVisibility(class func(c *Caller) string, visible func(class string, a ActionInfo) bool) Option {
	if class == nil || visible == nil {
		panic("vurb: WithVisibility needs both a class function and a visible function")
	}
	return func(c *config) { c.class, c.visible = class, visible }
}
