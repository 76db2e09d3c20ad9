package vurb

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/samber/lo"
	"github.com/vurb-go/vurb/describe"
	"github.com/vurb-go/vurb/internal/engine"
	"github.com/vurb-go/vurb/model"
	"github.com/vurb-go/vurb/schema"
)

// Model returns the app's domain model, building the app if needed: an
// immutable tree of its tools (groups of kind model.KindTool), their groups
// and actions, its categories, prompts and resources, with titles,
// descriptions, tags, annotations, state-sync policies and schemas, and the
// wire tools of both expositions (the served one is Model.Tools, the other
// Model.ToolsIn). Fully qualified names join with "." unless an option
// says otherwise (model.WithSeparator).
//
// Model reads the compiled plan and compiles nothing: each call builds a
// fresh model, equal to the last, from the plan and the frozen
// definitions; keep the one you need. It panics when a top-level category
// is named like a tool: a fully qualified name must name one group.
func (a *App) Model(opts ...model.Option) *model.Model {
	return a.modelOf(nil, opts)
}

// modelOf is the model of the view allow lets through (nil: the whole
// app). A tool none of whose actions pass is left out, and so is a
// category none of whose members are left.
func (a *App) modelOf(allow func(*engine.Endpoint) bool, opts []model.Option) *model.Model {
	p := a.built()
	exp := a.expose(p, allow)
	b := model.NewBuilder(model.Server{Name: a.cfg.name, Version: a.cfg.version, Instructions: a.cfg.instructions}, opts...)
	nodes := a.modelTools(b, exp)
	for _, e := range exp.expositions {
		addWireTools(b, e, nodes)
	}
	b.Serve(exp.served)
	a.modelCategories(b, nodes)
	m, err := b.Build()
	if err != nil {
		panic(fmt.Sprintf("vurb: the app's model: %v", err))
	}
	return m
}

// modelNodes are the model's groups and actions by the definitions they
// stand for, and the prompts and resources by theirs.
type modelNodes struct {
	tools     map[*Tool]*model.Group
	groups    map[*Group]*model.Group
	actions   map[*ActionDef]*model.Action
	byKey     map[string]*model.Action // canonical key
	prompts   map[*PromptDef]*model.Prompt
	resources map[*ResourceDef]*model.Resource
}

// modelTools adds the tools, their groups and actions that the view keeps,
// and the prompts and resources.
func (a *App) modelTools(b *model.Builder, exp exposed) modelNodes {
	n := modelNodes{
		tools: map[*Tool]*model.Group{}, groups: map[*Group]*model.Group{},
		actions: map[*ActionDef]*model.Action{}, byKey: map[string]*model.Action{},
		prompts: map[*PromptDef]*model.Prompt{}, resources: map[*ResourceDef]*model.Resource{},
	}
	policies := compilePolicies(a.cfg.policies, a.cfg.defaultCache)
	for _, t := range a.tools {
		if len(exp.endpoints[t.name]) == 0 {
			continue
		}
		tg := b.Group(nil, model.KindTool, model.Info{Name: t.name, Description: t.description}, userTags(t.tags)...)
		n.tools[t] = tg
		for _, d := range t.allActions() {
			ep := exp.kept[d.canonicalKey()]
			if ep == nil {
				continue
			}
			parent := tg
			if g := d.group; g != nil {
				if n.groups[g] == nil {
					n.groups[g] = b.Group(tg, model.KindGroup, model.Info{Name: g.name, Description: g.description}, userTags(g.tags)...)
				}
				parent = n.groups[g]
			}
			act := b.Action(parent, d.modelInfo(ep, exp.flat[d.canonicalKey()], policies))
			n.actions[d], n.byKey[d.canonicalKey()] = act, act
		}
	}
	for _, pr := range a.prompts {
		n.prompts[pr] = b.Prompt(&mcp.Prompt{Name: pr.name, Title: pr.title, Description: pr.description, Arguments: pr.arguments})
	}
	for _, r := range a.resources {
		if r.template {
			n.resources[r] = b.Template(&mcp.ResourceTemplate{URITemplate: r.uri, Name: r.name, Title: r.title,
				Description: r.description, MIMEType: r.mimeType, Annotations: r.annotations})
			continue
		}
		n.resources[r] = b.Resource(&mcp.Resource{URI: r.uri, Name: r.name, Title: r.title, Description: r.description,
			MIMEType: r.mimeType, Size: r.size, Annotations: r.annotations})
	}
	return n
}

// modelInfo is what the model holds of the action: its contract as its
// flat wire tool states it (schemas with everything the engine adds,
// annotations as a client reads them) or, when flat exposition cannot
// name it, as its definition implies.
func (d *ActionDef) modelInfo(ep *engine.Endpoint, flat *mcp.Tool, policies []compiledPolicy) model.ActionInfo {
	sync := resolveSync(d.canonicalKey(), d.cache, d.invalidates, policies, d.tool.app.cfg.defaultCache)
	info := model.ActionInfo{
		Info: model.Info{Name: d.name, Title: d.title, Description: d.description},
		Tags: userTags(ep.Tags()),
		Sync: model.Sync{Cache: sync.Cache, Invalidates: sync.Invalidates},
		// The scopes of every level: a contract diff then sees a scope
		// that a call newly needs as the breaking change it is.
		Scopes: slices.Clone(ep.Scopes()),
		Task:   d.modelTask(),
	}
	info.Presentation = d.presented.model() // presenter_manifest.go
	info.Workflow = d.modelWorkflow()       // workflow.go
	if flat != nil {
		info.InputSchema = schemaBytes(flat.InputSchema)
		info.OutputSchema = schemaBytes(flat.OutputSchema)
		if ann := model.AnnotationsFromWire(flat.Annotations); ann != nil {
			info.Annotations = *ann
		}
		return info
	}
	info.InputSchema, info.OutputSchema = d.codec.Schema(), d.outputSchema
	ann := d.annotations
	if ann == nil {
		ann = describe.ForAction(describe.Action{Title: d.title, ReadOnly: d.sem == semQuery,
			Destructive: d.sem == semMutation, Idempotent: d.idempotent, OpenWorld: d.openWorld})
	}
	info.Annotations = *model.AnnotationsFromWire(ann)
	return info
}

// modelTask is how the action runs as a task, for the model and so the
// manifest: turning on WithTaskRequired refuses clients, and a contract diff
// must see it.
func (d *ActionDef) modelTask() *model.Task {
	t := d.tool.app.tasks(false)
	if t == nil {
		return nil
	}
	spec, ok := t.Spec(d.canonicalKey())
	if !ok {
		return nil
	}
	return &model.Task{Required: spec.Required}
}

// modelCategories adds the categories reachable from the app's tools,
// prompts and resources, in declaration order, each with the members the
// view kept; a category left with no member and no child that has one is
// not added, so a filtered model names nothing it hides.
func (a *App) modelCategories(b *model.Builder, n modelNodes) {
	reached := map[*Category]bool{}
	reach := func(cs []*Category) {
		for _, c := range cs {
			for x := c; x != nil; x = x.parent {
				reached[x] = true
			}
		}
	}
	for _, t := range a.tools {
		reach(t.categories)
	}
	for _, p := range a.prompts {
		reach(p.categories)
	}
	for _, r := range a.resources {
		reach(r.categories)
	}
	var all []*Category
	for _, c := range a.categories {
		if reached[c] {
			all = append(all, c)
		}
	}
	for _, c := range all {
		c.freeze()
		if c.parent == nil {
			for _, t := range a.tools {
				if t.name == c.name {
					panic(fmt.Sprintf("vurb: category %q has the name of tool %q: a fully qualified name names one group; rename the category", c.name, t.name))
				}
			}
		}
	}
	groups := map[*Category]*model.Group{}
	for _, c := range all {
		leaves := c.leaves(n)
		if len(leaves) == 0 && !c.anyChild(all, n) {
			continue
		}
		var parent *model.Group
		if c.parent != nil {
			parent = groups[c.parent]
		}
		g := b.Group(parent, model.KindCategory, model.Info{Name: c.name, Title: c.title, Description: c.description,
			Meta: c.metaCopy(), Icons: c.icons})
		groups[c] = g
		b.Join(g, leaves...)
	}
}

// leaves are the model's leaves for the category's members that the view
// kept: a tool or group stands for its actions.
func (c *Category) leaves(n modelNodes) []model.Leaf {
	var out []model.Leaf
	add := func(d *ActionDef) {
		if act := n.actions[d]; act != nil {
			out = append(out, act)
		}
	}
	for _, t := range c.tools {
		for _, d := range t.allActions() {
			add(d)
		}
	}
	for _, g := range c.groups {
		for _, d := range g.actions {
			add(d)
		}
	}
	for _, d := range c.actions {
		add(d)
	}
	for _, p := range c.prompts {
		if mp := n.prompts[p]; mp != nil {
			out = append(out, mp)
		}
	}
	for _, r := range c.resources {
		if mr := n.resources[r]; mr != nil {
			out = append(out, mr)
		}
	}
	return out
}

// anyChild reports whether a descendant of c among all has a member left.
func (c *Category) anyChild(all []*Category, n modelNodes) bool {
	for _, ch := range c.children {
		if slices.Contains(all, ch) && (len(ch.leaves(n)) > 0 || ch.anyChild(all, n)) {
			return true
		}
	}
	return false
}

// exposed is a view of the plan in every exposition: the served one as the
// plan (or its view) lists it, the other made again from the same compiled
// endpoints. Nothing is compiled and no middleware constructor runs: an
// exposition is a pure function of a tool's endpoints.
type exposed struct {
	served      string
	expositions []wireExposition
	endpoints   map[string][]*engine.Endpoint // kept, by tool name, in order
	kept        map[string]*engine.Endpoint   // by canonical key
	flat        map[string]*mcp.Tool          // flat wire tool by canonical key
}

// wireExposition is one exposition's wire tools, each with the canonical
// keys of the actions it reaches.
type wireExposition struct {
	name  string
	flat  bool
	tools []wireTool
}

type wireTool struct {
	wire *mcp.Tool
	tool string   // the vurb tool
	keys []string // canonical keys of the actions it reaches
}

// expose lists the view allow lets through (nil: everything) in both
// expositions. The other exposition is left out when it cannot be made
// (a flat name over the MCP limit that grouped exposition never forms).
func (a *App) expose(p *engine.Plan, allow func(*engine.Endpoint) bool) exposed {
	served := a.cfg.exposition
	exp := exposed{served: served.String(), endpoints: map[string][]*engine.Endpoint{},
		kept: map[string]*engine.Endpoint{}, flat: map[string]*mcp.Tool{}}
	mine := wireExposition{name: served.String(), flat: served == Flat}
	for _, r := range p.View(allow) {
		mine.tools = append(mine.tools, wireOf(r))
		for _, ep := range r.Endpoints() {
			tool := toolOfKey(ep.Key())
			if exp.kept[ep.Key()] == nil {
				exp.kept[ep.Key()] = ep
				exp.endpoints[tool] = append(exp.endpoints[tool], ep)
			}
		}
	}
	others := []Exposition{Grouped}
	if served == Grouped {
		others = []Exposition{Flat}
	}
	if p.Searching() {
		// tools/list lists the search listing; both expositions are what
		// the app would list without search.
		exp.served = served.String() + searchSuffix
		mine = wireExposition{name: exp.served}
		var view map[string]engine.Route // the caller's: nil for the whole app
		if allow != nil {
			view = map[string]engine.Route{}
			for _, r := range p.View(allow) {
				view[r.Wire().Name] = r
			}
		}
		for _, r := range p.ListedRoutes(view) {
			w := wireOf(r)
			w.wire = p.ListedWire(r)
			mine.tools = append(mine.tools, w)
		}
		others = []Exposition{served, others[0]}
	}
	exp.expositions = append(exp.expositions, mine)
	for _, other := range others {
		if alt, ok := a.exposeAgain(p, other, exp.endpoints); ok {
			exp.expositions = append(exp.expositions, alt)
		}
	}
	for _, e := range exp.expositions {
		if e.flat {
			for _, t := range e.tools {
				exp.flat[t.keys[0]] = t.wire
			}
		}
	}
	return exp
}

// searchSuffix names the exposition a server with tool search lists:
// "flat+search" lists search's tools, and "flat" what it would list
// without search.
const searchSuffix = "+search"

// exposeAgain lists the kept endpoints of every tool in exposition e.
func (a *App) exposeAgain(p *engine.Plan, e Exposition, endpoints map[string][]*engine.Endpoint) (out wireExposition, ok bool) {
	defer func() {
		// A definition only this exposition refuses (a flat name over
		// the MCP limit) leaves it out; any other panic is a bug.
		if r := recover(); r != nil {
			if s, isText := r.(string); !isText || !strings.HasPrefix(s, "vurb: ") {
				panic(r)
			}
			ok = false
		}
	}()
	out = wireExposition{name: e.String(), flat: e == Flat}
	env := engine.Env{Separator: a.cfg.separator, Runtime: p.Runtime()}
	for _, t := range a.tools {
		eps := endpoints[t.name]
		if len(eps) == 0 || eps[0].Spec().Finder {
			continue // search's own tools are listed only with search
		}
		solo := len(eps) == 1 && eps[0].Spec().Key == ""
		if spec := t.wireSpec(); e == Grouped && !solo && namesField(eps, spec.Discriminator) {
			return out, false // an action has a field named like the discriminator: the tool cannot be grouped
		}
		for _, r := range e.engine().Expose(t.wireSpec(), eps, env) {
			out.tools = append(out.tools, wireOf(r))
		}
	}
	return out, true
}

// wireSpec is the tool's spec without its actions: what an exposition
// reads of the tool besides its endpoints, and what lower completes.
func (t *Tool) wireSpec() *engine.ToolSpec {
	spec := &engine.ToolSpec{
		Name:            t.name,
		Description:     t.description,
		Discriminator:   t.discriminatorName(),
		Annotations:     t.annotations,
		TOONDescription: t.toonDescription,
		Groups: lo.Map(t.groups, func(g *Group, _ int) engine.GroupSpec {
			return engine.GroupSpec{Name: g.name, Description: g.description}
		}),
	}
	if t.common != nil {
		spec.Common = t.app.codecFor(t.common)
	}
	return spec
}

func wireOf(r engine.Route) wireTool {
	eps := r.Endpoints()
	w := wireTool{wire: r.Wire(), keys: make([]string, len(eps))}
	for i, ep := range eps {
		w.keys[i] = ep.Key()
	}
	if len(eps) > 0 {
		w.tool = toolOfKey(eps[0].Key())
	}
	return w
}

// toolOfKey is the tool name of a canonical key (projects in projects.list).
func toolOfKey(key string) string {
	for i := 0; i < len(key); i++ {
		if key[i] == '.' {
			return key[:i]
		}
	}
	return key
}

// addWireTools adds an exposition's wire tools to the model: a flat tool
// exposes its one action, a grouped tool its vurb tool.
func addWireTools(b *model.Builder, e wireExposition, n modelNodes) {
	toolGroups := map[string]*model.Group{}
	for t, g := range n.tools {
		toolGroups[t.name] = g
	}
	for _, t := range e.tools {
		acts := make([]*model.Action, len(t.keys))
		for i, k := range t.keys {
			acts[i] = n.byKey[k]
			if acts[i] == nil {
				panic(fmt.Sprintf("vurb: the app's model: no action %q for wire tool %q", k, t.wire.Name))
			}
		}
		if e.flat {
			b.ActionTool(e.name, t.wire, acts[0])
		} else {
			b.GroupTool(e.name, t.wire, toolGroups[t.tool], acts)
		}
	}
}

// schemaBytes is the JSON of a wire schema, or nil.
func schemaBytes(s any) json.RawMessage {
	switch s := s.(type) {
	case nil:
		return nil
	case json.RawMessage:
		return s
	}
	data, err := json.Marshal(s)
	if err != nil {
		return nil
	}
	return data
}

// namesField reports whether an action of eps has an input field called
// name.
func namesField(eps []*engine.Endpoint, name string) bool {
	for _, ep := range eps {
		if slices.ContainsFunc(ep.Spec().In.Fields(), func(f schema.Field) bool { return f.Name == name }) {
			return true
		}
	}
	return false
}
