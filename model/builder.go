package model

import (
	"errors"
	"fmt"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Builder assembles a Model. It is the only way to make entities: each
// method copies what it is given, and Build freezes the result and ends the
// builder's use (later calls panic). A Builder is not safe for concurrent
// use.
type Builder struct {
	m *Model
}

// NewBuilder starts a model of server.
func NewBuilder(server Server, opts ...Option) *Builder {
	m := &Model{server: server, sep: DefaultSeparator, tools: map[string][]*Tool{}}
	for _, opt := range opts {
		opt(m)
	}
	return &Builder{m: m}
}

func (b *Builder) model() *Model {
	if b.m == nil {
		panic("model: the Builder has built its model; start another with NewBuilder")
	}
	return b.m
}

// Group adds a group under parent (nil for a root).
func (b *Builder) Group(parent *Group, kind GroupKind, info Info, tags ...string) *Group {
	m := b.model()
	g := &Group{entity: newEntity(info), m: m, kind: kind, parent: parent, tags: slices.Clone(tags)}
	if parent == nil {
		m.roots = append(m.roots, g)
	} else {
		parent.groups = append(parent.groups, g)
	}
	return g
}

// Action adds an action under its vurb tool or group.
func (b *Builder) Action(group *Group, a ActionInfo) *Action {
	m := b.model()
	act := &Action{
		entity:      newEntity(a.Info),
		m:           m,
		group:       group,
		tags:        slices.Clone(a.Tags),
		annotations: a.Annotations,
		input:       slices.Clone(a.InputSchema),
		output:      slices.Clone(a.OutputSchema),
		sync:        Sync{Cache: a.Sync.Cache, Invalidates: slices.Clone(a.Sync.Invalidates)},
		scopes:      slices.Clone(a.Scopes),
		presented:   a.Presentation.clone(),
		workflow:    a.Workflow.clone(),
	}
	if a.Task != nil {
		t := *a.Task
		act.task = &t
	}
	m.actions = append(m.actions, act)
	return act
}

// Tool adds a tool of a server seen on the wire, listed in exposition
// ("" when the server has no such notion). Its path is its name.
func (b *Builder) Tool(exposition string, w *mcp.Tool) *Tool {
	t := b.tool(exposition, w)
	t.path = []string{t.name}
	return t
}

// ActionTool adds the tool that exposes one action on its own (flat
// exposition). Its path is the action's.
func (b *Builder) ActionTool(exposition string, w *mcp.Tool, a *Action) *Tool {
	t := b.tool(exposition, w)
	t.actions = []*Action{a}
	t.path = a.Path()
	return t
}

// GroupTool adds the tool that exposes the actions of a vurb tool together
// (grouped exposition). Its path is the vurb tool's.
func (b *Builder) GroupTool(exposition string, w *mcp.Tool, tool *Group, actions []*Action) *Tool {
	t := b.tool(exposition, w)
	t.exposes = tool
	t.actions = slices.Clone(actions)
	t.path = tool.Path()
	return t
}

func (b *Builder) tool(exposition string, w *mcp.Tool) *Tool {
	m := b.model()
	if w == nil {
		panic("model: nil tool")
	}
	t := fromWireTool(w)
	t.m, t.exposition = m, exposition
	if !slices.Contains(m.expositions, exposition) {
		m.expositions = append(m.expositions, exposition)
	}
	m.tools[exposition] = append(m.tools[exposition], t)
	return t
}

// Serve names the exposition whose tools are served; without it, the
// first exposition a tool was added in.
func (b *Builder) Serve(exposition string) { b.model().served = exposition }

// Prompt adds a prompt.
func (b *Builder) Prompt(w *mcp.Prompt) *Prompt {
	m := b.model()
	p := PromptFromWire(w)
	if p == nil {
		panic("model: nil prompt")
	}
	m.prompts = append(m.prompts, p)
	return p
}

// Resource adds a static resource.
func (b *Builder) Resource(w *mcp.Resource) *Resource {
	m := b.model()
	r := ResourceFromWire(w)
	if r == nil {
		panic("model: nil resource")
	}
	m.resources = append(m.resources, r)
	return r
}

// Template adds a resource template.
func (b *Builder) Template(w *mcp.ResourceTemplate) *Resource {
	m := b.model()
	r := TemplateFromWire(w)
	if r == nil {
		panic("model: nil resource template")
	}
	m.resources = append(m.resources, r)
	return r
}

// Leaf is what can join a group besides its structural place: *Tool,
// *Action, *Prompt and *Resource.
type Leaf interface{ joins() *[]*Group }

func (t *Tool) joins() *[]*Group     { return &t.joined }
func (a *Action) joins() *[]*Group   { return &a.joined }
func (p *Prompt) joins() *[]*Group   { return &p.joined }
func (r *Resource) joins() *[]*Group { return &r.joined }

// Join makes g a further parent of each leaf (a category the leaf belongs
// to besides its structural place). Joining twice is joining once.
func (b *Builder) Join(g *Group, leaves ...Leaf) {
	b.model()
	for _, l := range leaves {
		j := l.joins()
		if !slices.Contains(*j, g) {
			*j = append(*j, g)
		}
	}
}

// Build links every leaf to its parents and every group to its children,
// checks that names are unique where the protocol needs them to be, and
// returns the frozen model. The builder cannot be used afterwards.
func (b *Builder) Build() (*Model, error) {
	m := b.model()
	b.m = nil
	if m.served == "" && len(m.expositions) > 0 {
		m.served = m.expositions[0]
	}
	if i := slices.Index(m.expositions, m.served); i > 0 {
		m.expositions = append([]string{m.served}, slices.Delete(m.expositions, i, i+1)...)
	}
	var walk func(gs []*Group)
	walk = func(gs []*Group) {
		for _, g := range gs {
			m.groups = append(m.groups, g)
			walk(g.groups)
		}
	}
	walk(m.roots)
	m.groupIndex = make(map[string]*Group, len(m.groups))
	for _, g := range m.groups {
		m.groupIndex[g.FQN()] = g
	}
	m.actionIndex = make(map[string]*Action, len(m.actions))
	for _, a := range m.actions {
		m.actionIndex[a.Key()] = a
	}
	for _, a := range m.actions {
		a.parents = nil
		if a.group != nil {
			a.parents = append(a.parents, a.group)
		}
		a.parents = appendNew(a.parents, a.joined...)
		for _, g := range a.parents {
			g.actions = append(g.actions, a)
		}
	}
	for _, ts := range m.tools {
		for _, t := range ts {
			linkTool(t)
		}
	}
	for _, t := range m.tools[m.served] {
		for _, a := range t.actions {
			a.tools = append(a.tools, t)
		}
		for _, g := range t.parents {
			g.tools = append(g.tools, t)
		}
	}
	for _, p := range m.prompts {
		for _, g := range p.joined {
			g.prompts = append(g.prompts, p)
		}
	}
	for _, r := range m.resources {
		for _, g := range r.joined {
			g.resources = append(g.resources, r)
		}
	}
	return m, m.check()
}

// linkTool computes a tool's parents: the structural place of what it
// exposes, then the categories of its actions and its own.
func linkTool(t *Tool) {
	switch {
	case t.exposes != nil:
		t.parents = []*Group{t.exposes}
	case len(t.actions) == 1 && t.actions[0].group != nil:
		t.parents = []*Group{t.actions[0].group}
	}
	for _, a := range t.actions {
		t.parents = appendNew(t.parents, a.joined...)
	}
	t.parents = appendNew(t.parents, t.joined...)
}

func appendNew(to []*Group, gs ...*Group) []*Group {
	for _, g := range gs {
		if !slices.Contains(to, g) {
			to = append(to, g)
		}
	}
	return to
}

// check reports every name the protocol or the model needs unique and
// finds twice.
func (m *Model) check() error {
	var errs []error
	dup := func(what string, names []string) {
		seen := map[string]bool{}
		for _, n := range names {
			if seen[n] {
				errs = append(errs, fmt.Errorf("two %s are named %q", what, n))
			}
			seen[n] = true
		}
	}
	for _, e := range m.expositions {
		dup("tools", names(m.tools[e], func(t *Tool) string { return t.name }))
	}
	dup("groups", names(m.groups, (*Group).FQN))
	dup("actions", names(m.actions, (*Action).Key))
	dup("prompts", names(m.prompts, func(p *Prompt) string { return p.name }))
	dup("resources", names(m.resources, func(r *Resource) string { return r.uri }))
	return errors.Join(errs...)
}

func names[T any](xs []T, name func(T) string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = name(x)
	}
	return out
}
