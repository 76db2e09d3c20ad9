package vurb

import (
	"fmt"
	"reflect"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/engine"
)

// defaultDiscriminator is the grouped-exposition field that names the
// action, unless Tool.Discriminator names another.
const defaultDiscriminator = "action"

// Tool is a named set of actions: either actions directly (projects.list,
// projects.create) or groups of actions (admin.users.list), never both. In
// flat exposition each action becomes its own MCP tool; in grouped
// exposition the whole Tool becomes one.
type Tool struct {
	app           *App
	name          string
	description   string
	tags          []string
	scopes        []string
	middleware    []Middleware
	common        reflect.Type
	discriminator string
	timeout       time.Duration
	annotations   *mcp.ToolAnnotations
	// toonDescription writes the grouped description in TOON.
	toonDescription bool
	categories      []*Category // the categories it or its actions joined (category.go)
	limits          limitSet    // limits.go

	actions []*ActionDef // direct actions, in declaration order
	groups  []*Group
	keys    map[string]bool
}

// Name returns the tool's name.
func (t *Tool) Name() string { return t.name }

// Describe sets the tool's description: the first thing a model reads about
// it in grouped exposition.
func (t *Tool) Describe(description string) *Tool {
	t.mustBeMutable()
	t.description = description
	return t
}

// Tags adds tags to every action of the tool, for tag filtering at Attach
// and Serve.
func (t *Tool) Tags(tags ...string) *Tool {
	t.mustBeMutable()
	t.tags = append(t.tags, tags...)
	return t
}

// Use appends tool middleware: inside app middleware, outside group and
// action middleware.
func (t *Tool) Use(mw ...Middleware) *Tool {
	t.mustBeMutable()
	t.middleware = append(t.middleware, checkMiddleware(fmt.Sprintf("tool %q", t.name), mw)...)
	return t
}

// Common declares the input fields every action of the tool shares (a
// workspace_id, say) by an example value of their struct. Each action's
// input must embed that struct; grouped exposition lists them once, its
// required fields in the schema's own "required".
func (t *Tool) Common(example any) *Tool {
	t.mustBeMutable()
	typ := reflect.TypeOf(example)
	if typ != nil && typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	if typ == nil || typ.Kind() != reflect.Struct {
		panic(fmt.Sprintf("vurb: tool %q: Common takes a struct value (got %v)", t.name, typ))
	}
	t.common = typ
	return t
}

// Discriminator renames the grouped-exposition field that names the action
// (default "action").
func (t *Tool) Discriminator(name string) *Tool {
	t.mustBeMutable()
	if why := engine.CheckSegmentName(name); why != "" {
		panic(fmt.Sprintf("vurb: tool %q: invalid discriminator %q: %s", t.name, name, why))
	}
	t.discriminator = name
	return t
}

// Timeout sets the deadline of the tool's calls, overriding the app's;
// actions may override it in turn.
func (t *Tool) Timeout(d time.Duration) *Tool {
	t.mustBeMutable()
	t.timeout = d
	return t
}

// Annotations sets the grouped tool's annotations explicitly, replacing the
// ones aggregated from its actions. Flat exposition ignores it: there each
// action carries its own.
func (t *Tool) Annotations(a *mcp.ToolAnnotations) *Tool {
	t.mustBeMutable()
	t.annotations = a
	return t
}

// Group adds a group of actions to the tool, for hierarchical keys like
// admin.users.list. A tool with groups cannot also hold direct actions.
func (t *Tool) Group(name, description string) *Group {
	t.mustBeMutable()
	if why := engine.CheckSegmentName(name); why != "" {
		panic(fmt.Sprintf("vurb: tool %q: invalid group name %q: %s", t.name, name, why))
	}
	if len(t.actions) > 0 {
		panic(fmt.Sprintf("vurb: tool %q already holds actions directly (%s); it cannot also hold groups: "+
			"put group %q in another tool, or move the actions into groups", t.name, t.actions[0].name, name))
	}
	for _, g := range t.groups {
		if g.name == name {
			panic(fmt.Sprintf("vurb: tool %q already has a group %q", t.name, name))
		}
	}
	g := &Group{tool: t, name: name, description: description}
	t.groups = append(t.groups, g)
	return g
}

// groupOrNew returns the named group, creating it without description.
func (t *Tool) groupOrNew(name string) *Group {
	for _, g := range t.groups {
		if g.name == name {
			return g
		}
	}
	return t.Group(name, "")
}

// soloNamespace is a tool that is one action, declared with a one-word name
// given to the app ("greet"): its action has the empty key, and in either
// exposition its wire name is the tool's.
type soloNamespace struct{ t *Tool }

func (s soloNamespace) owner() *App { return s.t.app }

func (s soloNamespace) add(a *ActionDef) {
	t := s.t
	t.mustBeMutable()
	if len(t.actions) > 0 || len(t.groups) > 0 {
		panic(fmt.Sprintf("vurb: tool %q already has actions; a one-word name declares a tool that is a single action: "+
			"name the action (\"%s.action\") or use another tool name", t.name, t.name))
	}
	if t.keys == nil {
		t.keys = map[string]bool{}
	}
	t.keys[""] = true
	a.tool, a.key = t, ""
	t.actions = append(t.actions, a)
}

// solo reports whether the tool is a single action with the empty key.
func (t *Tool) solo() bool { return len(t.actions) == 1 && t.actions[0].key == "" }

// add registers a direct action (namespace implementation).
func (t *Tool) add(a *ActionDef) {
	if t.solo() {
		panic(fmt.Sprintf("vurb: tool %q was declared as a single action (a one-word name); it cannot also hold action %q",
			t.name, a.name))
	}
	if len(t.groups) > 0 {
		panic(fmt.Sprintf("vurb: tool %q already holds groups (%s); it cannot also hold action %q directly: "+
			"add it to a group, or to another tool", t.name, t.groups[0].name, a.name))
	}
	t.register(a, a.name)
	t.actions = append(t.actions, a)
}

func (t *Tool) register(a *ActionDef, key string) {
	t.mustBeMutable()
	if why := engine.CheckSegmentName(a.name); why != "" {
		panic(fmt.Sprintf("vurb: invalid action name %q: %s", a.name, why))
	}
	if t.keys == nil {
		t.keys = map[string]bool{}
	}
	if t.keys[key] {
		panic(fmt.Sprintf("vurb: tool %q already has an action %q: action keys must be unique", t.name, key))
	}
	t.keys[key] = true
	a.tool = t
	a.key = key
}

func (t *Tool) mustBeMutable() {
	if t.app.frozen.Load() {
		panic(fmt.Sprintf("vurb: tool %q is built and frozen: it cannot be changed; define it completely before Build, Call, Attach or Serve", t.name))
	}
}

// allActions returns the tool's actions in declaration order, groups in
// order, for compilation.
func (t *Tool) allActions() []*ActionDef {
	if len(t.groups) == 0 {
		return t.actions
	}
	var out []*ActionDef
	for _, g := range t.groups {
		out = append(out, g.actions...)
	}
	return out
}

// TOONDescription describes the tool in TOON in grouped exposition: its
// description line and a table of its actions (describe.TOON, or the app's
// Describer) instead of one line per action. Flat exposition is not
// affected: there each action is its own tool.
func (t *Tool) TOONDescription() *Tool {
	t.mustBeMutable()
	t.toonDescription = true
	return t
}

// discriminatorName is the grouped-exposition field naming the action.
func (t *Tool) discriminatorName() string {
	if t.discriminator != "" {
		return t.discriminator
	}
	return defaultDiscriminator
}
