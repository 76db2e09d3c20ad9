package vurb

import (
	"fmt"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/describe"
	"github.com/vurb-go/vurb/internal/engine"
	"github.com/vurb-go/vurb/model"
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
// manifest: turning on TaskRequired refuses clients, and a contract diff
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
