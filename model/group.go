package model

import (
	"slices"
	"strings"
)

// GroupKind says what a group stands for.
type GroupKind int8

const (
	// KindCategory is an organisational group: it names a part of the
	// server (platform.users.management) and lists the leaves that joined
	// it, whatever tool they belong to.
	KindCategory GroupKind = iota
	// KindTool is a vurb tool: the actions declared on it, or its groups.
	KindTool
	// KindGroup is a group of actions inside a vurb tool (users in
	// admin.users.list).
	KindGroup
)

// String returns "category", "tool" or "group".
func (k GroupKind) String() string {
	switch k {
	case KindTool:
		return "tool"
	case KindGroup:
		return "group"
	}
	return "category"
}

// Group is a node of the model's trees: it has at most one parent, child
// groups, and the leaves (tools, actions, prompts, resources) that list it
// among their parents.
type Group struct {
	entity
	m      *Model
	kind   GroupKind
	parent *Group
	tags   []string

	groups    []*Group
	tools     []*Tool // of the served exposition
	actions   []*Action
	prompts   []*Prompt
	resources []*Resource
}

// Kind returns what the group stands for.
func (g *Group) Kind() GroupKind { return g.kind }

// Parent returns the group's parent, or nil for a root.
func (g *Group) Parent() *Group { return g.parent }

// IsRoot reports whether the group has no parent.
func (g *Group) IsRoot() bool { return g.parent == nil }

// Root returns the root of the group's tree (the group itself for a root).
func (g *Group) Root() *Group {
	for g.parent != nil {
		g = g.parent
	}
	return g
}

// Path returns the names from the root down to the group.
func (g *Group) Path() []string {
	if g.parent == nil {
		return []string{g.name}
	}
	return append(g.parent.Path(), g.name)
}

// FQN returns the group's fully qualified name: its path joined by the
// model's separator ("platform.users.management").
func (g *Group) FQN() string { return strings.Join(g.Path(), g.m.sep) }

// Tags returns the group's own tags (vurb: those declared on the tool or
// the group), or nil.
func (g *Group) Tags() []string { return slices.Clone(g.tags) }

// Groups returns the child groups, in declaration order.
func (g *Group) Groups() []*Group { return slices.Clone(g.groups) }

// Tools returns the tools of the served exposition that list g among
// their parents: for a vurb tool in grouped exposition, its one tool; in
// flat exposition, the tools of its direct actions; for a category, every
// tool that exposes one of its actions.
func (g *Group) Tools() []*Tool { return slices.Clone(g.tools) }

// Actions returns the actions that list g among their parents.
func (g *Group) Actions() []*Action { return slices.Clone(g.actions) }

// Prompts returns the prompts that joined g.
func (g *Group) Prompts() []*Prompt { return slices.Clone(g.prompts) }

// Resources returns the resources and resource templates that joined g.
func (g *Group) Resources() []*Resource { return slices.Clone(g.resources) }

// Contains reports whether other is g or one of its descendants.
func (g *Group) Contains(other *Group) bool {
	for ; other != nil; other = other.parent {
		if other == g {
			return true
		}
	}
	return false
}
