package vurb

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/samber/lo"
	"github.com/vurb-go/vurb/internal/engine"
	"github.com/vurb-go/vurb/model"
)

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
	exp.expositions = append(exp.expositions, mine)
	other := Grouped
	if served == Grouped {
		other = Flat
	}
	if alt, ok := a.exposeAgain(p, other, exp.endpoints); ok {
		exp.expositions = append(exp.expositions, alt)
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
		if len(eps) == 0 {
			continue
		}
		for _, r := range e.engine().Expose(t.wireSpec(), eps, env) {
			out.tools = append(out.tools, wireOf(r))
		}
	}
	return out, true
}

// wireSpec is what an exposition reads of the tool besides its endpoints,
// as lower makes it.
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
