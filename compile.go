package vurb

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/describe"
	"github.com/vurb-go/vurb/schema"
)

// plan is the compiled, immutable form of an App: what tools/list returns
// and the routes tools/call dispatches through.
type plan struct {
	tools   []*mcp.Tool       // in declaration order
	order   []*route          // the same order
	entries []viewEntry       // what Attach registers without a filter
	routes  map[string]*route // wire name → route
}

// route is one wire tool: a single endpoint in flat exposition, a
// discriminated set in grouped exposition.
type route struct {
	wire *mcp.Tool
	tool *Tool
	// flat
	single *endpoint
	// grouped
	discriminator string
	actions       map[string]*endpoint
	available     string // "list, create, delete", for error texts
}

// endpoint is one action, compiled: everything a call needs, precomputed.
type endpoint struct {
	app     *App
	tool    string
	action  string
	key     string
	name    string // wire name
	prefix  string // "[projects/list] "
	decode  decodeFunc
	opts    schema.DecodeOptions
	handler Handler // the whole middleware chain ending in the handler
	timeout time.Duration
	tags    []string // the action's, its group's and its tool's
	sync    syncRule
}

// compile turns the App's definitions into its plan. It runs once, under
// the build lock, and panics on definition errors.
func compile(a *App) *plan {
	n := 0
	for _, t := range a.tools {
		n += len(t.allActions())
	}
	// Sized up front: rehashing maps of 100,000 routes was a sixth of Build.
	p := &plan{routes: make(map[string]*route, n)}
	a.policies = compilePolicies(a.cfg.policies, a.cfg.defaultCache)
	for _, t := range a.tools {
		actions := t.allActions()
		if len(actions) == 0 {
			panic(fmt.Sprintf("vurb: tool %q has no actions; add one with vurb.Query, vurb.Action or vurb.Mutation", t.name))
		}
		checkCommon(t, actions)
		var routes []*route
		if a.cfg.exposition == Grouped {
			routes = []*route{compileGrouped(a, t, actions)}
		} else {
			for _, def := range actions {
				routes = append(routes, compileFlat(a, t, def))
			}
		}
		for _, r := range routes {
			if _, dup := p.routes[r.wire.Name]; dup {
				panic(fmt.Sprintf("vurb: two tools share the wire name %q; rename one (or change the separator)", r.wire.Name))
			}
			p.routes[r.wire.Name] = r
			p.tools = append(p.tools, r.wire)
			p.order = append(p.order, r)
			p.entries = append(p.entries, r.entry())
		}
	}
	if obs := a.cfg.observer; obs != nil {
		for _, r := range p.order {
			obs(context.Background(), Event{Kind: ToolRegistered, Time: time.Now(), Tool: r.tool.name, Name: r.wire.Name})
		}
	}
	return p
}

// compileFlat makes one wire tool of one action.
func compileFlat(a *App, t *Tool, def *ActionDef) *route {
	name := flatName(t.name, def.key, a.cfg.separator)
	mustWireName(name, def.canonicalKey())
	info := describeAction(def)
	ep := newEndpoint(a, t, def, name, "")
	wire := &mcp.Tool{
		Name:        name,
		Title:       def.title,
		Description: decorate(describe.Flat(t.name, info), ep.sync.cache),
		InputSchema: schema.CodecFor(def.in).Schema(),
		Annotations: actionAnnotations(def, info),
	}
	if out, ok := schema.OutputSchema(def.out); ok {
		wire.OutputSchema = out
	}
	return &route{wire: wire, tool: t, single: ep}
}

// compileGrouped makes one wire tool of a whole tool.
func compileGrouped(a *App, t *Tool, defs []*ActionDef) *route {
	mustWireName(t.name, t.name)
	disc := t.discriminatorName()
	infos := make([]describe.Action, len(defs))
	members := make([]schema.Member, len(defs))
	r := &route{tool: t, discriminator: disc, actions: make(map[string]*endpoint, len(defs))}
	keys := make([]string, len(defs))
	rules := make([]syncRule, len(defs))
	for i, def := range defs {
		infos[i] = describeAction(def)
		members[i] = schema.Member{Key: def.key, Codec: schema.CodecFor(def.in)} // descriptions are in the tool's workflow lines already
		ep := newEndpoint(a, t, def, t.name, disc)
		r.actions[def.key] = ep
		keys[i] = def.key
		rules[i] = ep.sync
	}
	r.available = strings.Join(keys, ", ")
	var common *schema.Codec
	if t.common != nil {
		common = schema.CodecFor(t.common)
	}
	ann := t.annotations
	if ann == nil {
		ann = describe.Aggregate(infos)
	}
	r.wire = &mcp.Tool{
		Name:        t.name,
		Description: decorate(groupedDescription(t, infos), agreedCache(rules)),
		InputSchema: schema.Merge(disc, common, members),
		Annotations: ann,
	}
	return r
}

// groupedDescription is the Markdown or, when the tool asks, TOON
// description of a grouped tool.
func groupedDescription(t *Tool, infos []describe.Action) string {
	d := describe.Tool{Name: t.name, Description: t.description, Groups: describeGroups(t), Actions: infos}
	if t.toonDescription {
		text, err := describe.TOON(d)
		if err != nil {
			panic(fmt.Sprintf("vurb: tool %q: its TOON description failed: %v", t.name, err))
		}
		return text
	}
	return describe.Grouped(d)
}

func newEndpoint(a *App, t *Tool, def *ActionDef, wireName, skip string) *endpoint {
	layers := make([]Middleware, 0, len(a.middleware)+len(t.middleware)+len(def.middleware)+2)
	layers = append(layers, a.middleware...)
	layers = append(layers, t.middleware...)
	if def.group != nil {
		layers = append(layers, def.group.middleware...)
	}
	layers = append(layers, def.middleware...)
	tags := append(append([]string(nil), t.tags...), def.tags...)
	if def.group != nil {
		tags = append(tags, def.group.tags...)
	}
	timeout := a.cfg.timeout
	if t.timeout > 0 {
		timeout = t.timeout
	}
	if def.timeout > 0 {
		timeout = def.timeout
	}
	return &endpoint{
		app:     a,
		tool:    t.name,
		action:  def.key,
		key:     def.canonicalKey(),
		name:    wireName,
		prefix:  "[" + t.name + "/" + def.key + "] ",
		decode:  def.decode,
		opts:    schema.DecodeOptions{Limits: a.cfg.limits, Skip: skip},
		handler: chain(def.endpoint, layers),
		timeout: timeout,
		tags:    tags,
		sync:    resolveSync(def.canonicalKey(), def.cache, def.invalidates, a.policies, a.cfg.defaultCache),
	}
}

// describeAction gathers what describe needs of an action.
func describeAction(def *ActionDef) describe.Action {
	var required []string
	for _, f := range schema.CodecFor(def.in).Fields() {
		if f.Required {
			required = append(required, f.Name)
		}
	}
	return describe.Action{
		Key:         def.key,
		Description: def.description,
		Required:    required,
		ReadOnly:    def.sem == semQuery,
		Destructive: def.sem == semMutation,
		Idempotent:  def.idempotent,
		OpenWorld:   def.openWorld,
		Title:       def.title,
	}
}

func describeGroups(t *Tool) []describe.Group {
	out := make([]describe.Group, len(t.groups))
	for i, g := range t.groups {
		out[i] = describe.Group{Name: g.name, Description: g.description}
	}
	return out
}

// actionAnnotations are the explicit ones when the action set them, else
// those its semantics imply.
func actionAnnotations(def *ActionDef, info describe.Action) *mcp.ToolAnnotations {
	if def.annotations != nil {
		return def.annotations
	}
	return describe.ForAction(info)
}

// checkCommon makes sure every action of a tool with common fields has them
// all: grouped exposition lists them once for every action.
func checkCommon(t *Tool, defs []*ActionDef) {
	if t.common == nil {
		return
	}
	common := schema.CodecFor(t.common).Fields()
	for _, def := range defs {
		have := map[string]bool{}
		for _, f := range schema.CodecFor(def.in).Fields() {
			have[f.Name] = true
		}
		for _, f := range common {
			if !have[f.Name] {
				panic(fmt.Sprintf("vurb: action %q of tool %q lacks the common field %q: embed %s in its input %s",
					def.key, t.name, f.Name, t.common, def.in))
			}
		}
	}
}

func mustWireName(name, key string) {
	if why := checkWireName(name); why != "" {
		panic(fmt.Sprintf("vurb: %q (for %s) is not a valid MCP tool name: %s", name, key, why))
	}
}

func (t *Tool) discriminatorName() string {
	if t.discriminator != "" {
		return t.discriminator
	}
	return DefaultDiscriminator
}

// Tools returns the compiled tools/list entries, in declaration order,
// building the app if needed. The slice and the tools are shared: do not
// modify them.
func (a *App) Tools() []*mcp.Tool {
	return a.built().tools
}
