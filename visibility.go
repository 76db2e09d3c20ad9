package vurb

import "github.com/vurb-go/vurb/internal/edge"

// ActionInfo is what a visibility rule knows of an action: everything
// that decides who may see it, without its handler.
type ActionInfo = edge.ActionInfo

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
