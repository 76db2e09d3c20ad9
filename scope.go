package vurb

import (
	"fmt"
	"slices"
	"strings"
)

// RequireScopes makes every call, prompt and resource of the app need the
// OAuth scopes in the caller's verified token (see Caller.Token): a call
// without them is refused with a message naming the scopes missing, and its
// action is absent from that caller's tools/list. Served with
// WithScopeChallenges, the action stays listed and the call is answered with
// an HTTP challenge for the scopes instead (step-up authorization). Scopes
// declared at the app, tool, group and action levels add up.
//
// A request with no token (stdio, an in-process App.Call, an HTTP server
// without WithBearerAuth) grants no scope: scoped actions refuse it. Give
// an in-process call an identity with ContextWithCaller.
func (a *App) RequireScopes(scopes ...string) *App {
	a.mustBeMutable()
	a.scopes = addScopes(a.scopes, "App", scopes)
	return a
}

// RequireScopes makes every action of the tool need the OAuth scopes (see
// App.RequireScopes).
func (t *Tool) RequireScopes(scopes ...string) *Tool {
	t.mustBeMutable()
	t.scopes = addScopes(t.scopes, "Tool "+t.name, scopes)
	return t
}

// RequireScopes makes every action of the group need the OAuth scopes (see
// App.RequireScopes).
func (g *Group) RequireScopes(scopes ...string) *Group {
	g.tool.mustBeMutable()
	g.scopes = addScopes(g.scopes, "Group "+g.name, scopes)
	return g
}

// RequireScopes makes the action need the OAuth scopes (see
// App.RequireScopes).
func (a *ActionDef) RequireScopes(scopes ...string) *ActionDef {
	a.mustBeMutable()
	a.scopes = addScopes(a.scopes, "action "+a.canonicalKey(), scopes)
	return a
}

// addScopes appends scopes to have, checking each is a scope token of
// RFC 6749 §3.3 (printable ASCII, no space, quote or backslash), as a
// WWW-Authenticate challenge can carry it.
func addScopes(have []string, owner string, scopes []string) []string {
	for _, s := range scopes {
		if s == "" || strings.ContainsFunc(s, func(r rune) bool { return r <= ' ' || r > '~' || r == '"' || r == '\\' }) {
			panic(fmt.Sprintf("vurb: %s RequireScopes: %q is not an OAuth scope (printable ASCII, no spaces, quotes or backslashes)", owner, s))
		}
		if !slices.Contains(have, s) {
			have = append(have, s)
		}
	}
	return have
}

// requiredScopes are the scopes some request of the built app needs,
// sorted: the app's own and every action's.
func (a *App) requiredScopes() []string {
	all := slices.Clone(a.scopes)
	for _, r := range a.built().Routes() {
		for _, ep := range r.Endpoints() {
			for _, s := range ep.Scopes() {
				if !slices.Contains(all, s) {
					all = append(all, s)
				}
			}
		}
	}
	slices.Sort(all)
	return all
}

// requiredScopes are the scopes of the action and of every level around
// it, each once, outermost first.
func (d *ActionDef) requiredScopes() []string {
	var all []string
	levels := [][]string{d.tool.app.scopes, d.tool.scopes, nil, d.scopes}
	if d.group != nil {
		levels[2] = d.group.scopes
	}
	for _, l := range levels {
		for _, s := range l {
			if !slices.Contains(all, s) {
				all = append(all, s)
			}
		}
	}
	return all
}
