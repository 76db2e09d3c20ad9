package vurb

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/engine"
)

// groupTagPrefix starts the tags a category gives its members, so that
// serving can select by group as it selects by tag (WithIncludeGroups). Tags
// that start with it are reserved.
const groupTagPrefix = "group:"

// Category is an organisational group: a named part of the server
// (user-facing, admin, platform.users.management) that tools, their groups
// and actions, prompts and resources join, each as many categories as it
// likes. Categories nest; a category's fully qualified name joins its
// ancestors' names with dots.
//
// Categories change nothing a client sees. They shape the app's Model and
// its manifest, and serving can select by them (WithIncludeGroups,
// WithExcludeGroups) as it selects by tag: joining gives a member the tag
// "group:<fqn>" (and its ancestors'), so tags that start with "group:" are
// reserved. A Category belongs to the app that made it (App.Category), is
// declared once and joined from any number of places in that app; it is
// frozen once a model of the app is made (App.Model, a read of
// PublishManifest's resource), and panics if changed afterwards.
type Category struct {
	app                      *App
	name, title, description string
	meta                     map[string]any
	icons                    []mcp.Icon
	parent                   *Category
	children                 []*Category
	frozen                   atomic.Bool

	tools     []*Tool
	groups    []*Group
	actions   []*ActionDef
	prompts   []*PromptDef
	resources []*ResourceDef
}

// Category returns the app's top-level category called name, creating it
// on first use, so that members join it from several places. The app's
// model lists its categories in the order they were made, children
// included, whatever the order members join them. It panics when name is
// not a valid segment (A-Z, a-z, 0-9, '_' and '-'; dots join segments, so
// use Category.Category for a child), or when the category is new and the
// app is built.
func (a *App) Category(name string) *Category {
	for _, c := range a.categories {
		if c.parent == nil && c.name == name {
			return c
		}
	}
	a.mustBeMutable()
	return a.newCategory(nil, name)
}

// Category returns the child category called name, creating it on first
// use.
func (c *Category) Category(name string) *Category {
	for _, ch := range c.children {
		if ch.name == name {
			return ch
		}
	}
	c.mustBeMutable()
	ch := c.app.newCategory(c, name)
	c.children = append(c.children, ch)
	return ch
}

// newCategory makes the category called name under parent (nil: a
// top-level one) and records it in a.categories, whose order is the
// model's: the app owns the order of its categories, so no counter is
// shared by the apps of a process.
func (a *App) newCategory(parent *Category, name string) *Category {
	if why := engine.CheckSegmentName(name); why != "" {
		panic(fmt.Sprintf("vurb: invalid category name %q: %s; nest categories with Category", name, why))
	}
	c := &Category{app: a, name: name, parent: parent}
	a.categories = append(a.categories, c)
	return c
}

// Name returns the category's own name.
func (c *Category) Name() string { return c.name }

// FQN returns the category's fully qualified name: its ancestors' names
// and its own, joined by dots (platform.users.management).
func (c *Category) FQN() string { return strings.Join(c.path(), ".") }

func (c *Category) path() []string {
	if c.parent == nil {
		return []string{c.name}
	}
	return append(c.parent.path(), c.name)
}

// Title sets the category's human-readable title.
func (c *Category) Title(title string) *Category {
	c.mustBeMutable()
	c.title = title
	return c
}

// Describe sets the category's description.
func (c *Category) Describe(description string) *Category {
	c.mustBeMutable()
	c.description = description
	return c
}

// Icons sets the category's icons.
func (c *Category) Icons(icons ...mcp.Icon) *Category {
	c.mustBeMutable()
	c.icons = icons
	return c
}

// Meta sets one entry of the category's _meta (a JSON value).
func (c *Category) Meta(key string, value any) *Category {
	c.mustBeMutable()
	if c.meta == nil {
		c.meta = map[string]any{}
	}
	c.meta[key] = value
	return c
}

// member is what can join a category: *Tool, *Group, *ActionDef,
// *PromptDef and *ResourceDef, each through its In method.
type member interface {
	join(c *Category)
}

// admit makes m join c: the one path of every In.
func (c *Category) admit(m member) {
	c.mustBeMutable()
	m.join(c)
}

// In makes the tool, and so every action it has or will have, join each
// category (and so its ancestors, for serving selection). Joining twice is
// joining once. It panics when the tool's app is built.
func (t *Tool) In(categories ...*Category) *Tool {
	for _, c := range categories {
		c.admit(t)
	}
	return t
}

// In makes the group's actions join each category.
func (g *Group) In(categories ...*Category) *Group {
	for _, c := range categories {
		c.admit(g)
	}
	return g
}

// In makes the action join each category.
func (a *ActionDef) In(categories ...*Category) *ActionDef {
	for _, c := range categories {
		c.admit(a)
	}
	return a
}

// In makes the prompt join each category.
func (p *PromptDef) In(categories ...*Category) *PromptDef {
	for _, c := range categories {
		c.admit(p)
	}
	return p
}

// In makes the resource join each category.
func (r *ResourceDef) In(categories ...*Category) *ResourceDef {
	for _, c := range categories {
		c.admit(r)
	}
	return r
}

func (t *Tool) join(c *Category) {
	t.mustBeMutable()
	c.mustBelongTo(t.app)
	if !slices.Contains(c.tools, t) {
		c.tools = append(c.tools, t)
	}
	t.categories = appendCategory(t.categories, c)
	t.tags = appendGroupTags(t.tags, c)
}

func (g *Group) join(c *Category) {
	g.tool.mustBeMutable()
	c.mustBelongTo(g.tool.app)
	if !slices.Contains(c.groups, g) {
		c.groups = append(c.groups, g)
	}
	g.tool.categories = appendCategory(g.tool.categories, c)
	g.tags = appendGroupTags(g.tags, c)
}

func (a *ActionDef) join(c *Category) {
	a.mustBeMutable()
	c.mustBelongTo(a.tool.app)
	if !slices.Contains(c.actions, a) {
		c.actions = append(c.actions, a)
	}
	a.tool.categories = appendCategory(a.tool.categories, c)
	a.tags = appendGroupTags(a.tags, c)
}

func (p *PromptDef) join(c *Category) {
	p.app.mustBeMutable()
	c.mustBelongTo(p.app)
	if !slices.Contains(c.prompts, p) {
		c.prompts = append(c.prompts, p)
	}
	p.categories = appendCategory(p.categories, c)
}

func (r *ResourceDef) join(c *Category) {
	r.app.mustBeMutable()
	c.mustBelongTo(r.app)
	if !slices.Contains(c.resources, r) {
		c.resources = append(c.resources, r)
	}
	r.categories = appendCategory(r.categories, c)
}

func appendCategory(cs []*Category, c *Category) []*Category {
	if slices.Contains(cs, c) {
		return cs
	}
	return append(cs, c)
}

// appendGroupTags adds the selection tags of c and its ancestors: joining
// platform.users puts a member in platform too.
func appendGroupTags(tags []string, c *Category) []string {
	for ; c != nil; c = c.parent {
		if tag := groupTagPrefix + c.FQN(); !slices.Contains(tags, tag) {
			tags = append(tags, tag)
		}
	}
	return tags
}

// userTags returns tags without the reserved group tags.
func userTags(tags []string) []string {
	var out []string
	for _, t := range tags {
		if !strings.HasPrefix(t, groupTagPrefix) {
			out = append(out, t)
		}
	}
	return out
}

// mustBelongTo panics when c is another app's: its order and its freezing
// are its app's, so a member joins only the categories of its own app.
func (c *Category) mustBelongTo(a *App) {
	if c.app != a {
		panic(fmt.Sprintf("vurb: category %q belongs to another app; join this app's, app.Category(%q)", c.FQN(), c.path()[0]))
	}
}

func (c *Category) mustBeMutable() {
	for x := c; x != nil; x = x.parent {
		if x.frozen.Load() {
			panic(fmt.Sprintf("vurb: category %q is used by a built app and frozen: declare it completely before Build", c.FQN()))
		}
	}
}

// freeze marks c and its ancestors as used by a built app.
func (c *Category) freeze() {
	for x := c; x != nil; x = x.parent {
		x.frozen.Store(true)
	}
}

// metaCopy is the category's _meta, copied.
func (c *Category) metaCopy() map[string]any {
	if c.meta == nil {
		return nil
	}
	return maps.Clone(c.meta)
}

func groupTags(fqns []string) []string {
	out := make([]string, len(fqns))
	for i, f := range fqns {
		out[i] = groupTagPrefix + f
	}
	return out
}
