package vurb

import "fmt"

// Group is a named set of actions inside a tool (users in admin.users.list).
// Groups let one tool carry a whole module tree while each action keeps a
// short name of its own.
type Group struct {
	tool        *Tool
	name        string
	description string
	tags        []string
	scopes      []string
	middleware  []Middleware
	limits      limitSet // limits.go
	actions     []*ActionDef
}

// Name returns the group's name.
func (g *Group) Name() string { return g.name }

// Describe sets the group's description.
func (g *Group) Describe(description string) *Group {
	g.tool.mustBeMutable()
	g.description = description
	return g
}

// Tags adds tags to every action of the group.
func (g *Group) Tags(tags ...string) *Group {
	g.tool.mustBeMutable()
	g.tags = append(g.tags, tags...)
	return g
}

// Use appends group middleware: inside tool middleware, outside action
// middleware.
func (g *Group) Use(mw ...Middleware) *Group {
	g.tool.mustBeMutable()
	g.middleware = append(g.middleware, checkMiddleware(fmt.Sprintf("group %q of tool %q", g.name, g.tool.name), mw)...)
	return g
}

// add registers an action of the group (namespace implementation).
func (g *Group) add(a *ActionDef) {
	g.tool.register(a, g.name+"."+a.name)
	a.group = g
	g.actions = append(g.actions, a)
}
