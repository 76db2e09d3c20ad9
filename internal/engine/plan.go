package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/search"
)

// Spec is a whole app, lowered by the definition layer.
type Spec struct {
	Tools      []*ToolSpec
	Exposition Exposition
	Separator  string
	Runtime    *Runtime
	// Search, when not nil, serves tool search (search.go) with the index
	// it builds; the actions marked Finder are its tools. A func, so that
	// an app without search links no index (its synonyms are a megabyte).
	Search func([]search.Doc) Index
}

// Plan is the compiled, immutable form of an app: what tools/list returns
// and the routes tools/call dispatches through. It owns its runtime and
// never refers back to the definitions it was compiled from.
type Plan struct {
	rt     *Runtime
	expo   Exposition
	env    Env
	specs  []*ToolSpec
	routes []Route // in declaration order
	owners []int   // index in specs of each route's tool
	tools  []*mcp.Tool
	byName map[string]Route
	finder *finder // tool search; nil without it

	// views memoizes the wire tools of partial subsets of a tool (a
	// grouped tool some of whose actions a filter hides), keyed by the
	// tool and the keys kept: a view built again reuses them.
	views sync.Map // string -> Route
}

// Compile turns a lowered app into its plan. It panics on definition
// errors that only the whole picture reveals (a wire name too long, two
// tools with one wire name), naming what to change.
func Compile(s Spec) *Plan {
	n := 0
	for _, t := range s.Tools {
		n += len(t.Actions)
	}
	// Sized up front: rehashing maps of 100,000 routes was a sixth of Build.
	p := &Plan{rt: s.Runtime, expo: s.Exposition, specs: s.Tools, byName: make(map[string]Route, n),
		env: Env{Separator: s.Separator, Runtime: s.Runtime}}
	p.rt.refs = make(map[string]string, n)
	for i, t := range s.Tools {
		eps := make([]*Endpoint, len(t.Actions))
		for j, a := range t.Actions {
			eps[j] = newEndpoint(p.rt, t.Name, a)
		}
		for _, r := range p.expo.Expose(t, eps, p.env) {
			name := r.Wire().Name
			if _, dup := p.byName[name]; dup {
				panic("vurb: two tools share the wire name \"" + name + "\"; rename one (or change the separator)")
			}
			p.byName[name] = r
			for _, ep := range r.Endpoints() {
				p.rt.refs[ep.key] = ep.ref
				if ep.flow != nil {
					if p.rt.flows == nil {
						p.rt.flows = map[string][]*Endpoint{}
						p.rt.handles = NewHandles(p.rt.Sealer)
					}
					m := ep.flow.Machine
					if _, seen := p.rt.flows[m.Name]; !seen && m.BySession {
						p.rt.sessionFlows = append(p.rt.sessionFlows, m)
					}
					p.rt.flows[m.Name] = append(p.rt.flows[m.Name], ep)
				}
			}
			p.routes = append(p.routes, r)
			p.owners = append(p.owners, i)
			p.tools = append(p.tools, r.Wire())
		}
	}
	if s.Search != nil {
		p.finder = buildFinder(p, s.Search)
		p.tools = p.Listing(nil)
	}
	if obs := p.rt.Observer; obs != nil {
		for i, r := range p.routes {
			obs(context.Background(), Event{Kind: ToolRegistered, Time: time.Now(), Tool: p.specs[p.owners[i]].Name, Name: r.Wire().Name})
		}
	}
	return p
}

// Runtime returns the plan's runtime.
func (p *Plan) Runtime() *Runtime { return p.rt }

// Tools returns the tools/list entries: in declaration order, or under
// tool search the search tools and those marked always-load, by name.
// Shared: do not modify.
func (p *Plan) Tools() []*mcp.Tool { return p.tools }

// Routes returns every route in declaration order. Shared: do not modify.
func (p *Plan) Routes() []Route { return p.routes }

// Route returns the route of the wire tool called name.
func (p *Plan) Route(name string) (Route, bool) {
	r, ok := p.byName[name]
	return r, ok
}

// Call runs the wire tool called name with args: the in-process entry of
// the same pipeline a served call takes. An unknown name is a protocol
// error (see UnknownTool).
func (p *Plan) Call(ctx context.Context, name string, args json.RawMessage, o *Origin) (*mcp.CallToolResult, error) {
	r, ok := p.byName[name]
	if !ok {
		return nil, UnknownTool(p.rt, name)
	}
	return callRoute(ctx, r, args, o)
}

// callRoute is r.Call through r's concrete type. An interface method's
// pointer argument escapes, so calling the method would move the caller's
// origin to the heap: one allocation more per in-process call (App.Call).
func callRoute(ctx context.Context, r Route, args json.RawMessage, o *Origin) (*mcp.CallToolResult, error) {
	switch r := r.(type) {
	case *flatRoute:
		return r.Call(ctx, args, o)
	case *groupedRoute:
		return r.Call(ctx, args, o)
	}
	panic(fmt.Sprintf("engine: callRoute: unknown route type %T", r))
}

// Has reports whether the plan exposes a wire tool called name.
func (p *Plan) Has(name string) bool {
	_, ok := p.byName[name]
	return ok
}

// View returns the routes whose actions allow lets through, in declaration
// order: a route all of whose actions pass is the plan's own; one some of
// whose actions pass (a grouped tool) is exposed again over those actions
// alone, once per subset, sharing the endpoints and their chains. A nil
// allow is the whole plan.
func (p *Plan) View(allow func(ep *Endpoint) bool) []Route {
	if allow == nil {
		return p.routes
	}
	var out []Route
	for i, r := range p.routes {
		all := r.Endpoints()
		kept := make([]*Endpoint, 0, len(all))
		for _, ep := range all {
			if allow(ep) {
				kept = append(kept, ep)
			}
		}
		switch len(kept) {
		case 0:
		case len(all):
			out = append(out, r)
		default:
			out = append(out, p.partial(p.specs[p.owners[i]], kept)...)
		}
	}
	return out
}

// partial is the memoized exposition of a subset of one tool's endpoints.
func (p *Plan) partial(t *ToolSpec, eps []*Endpoint) []Route {
	var key strings.Builder
	key.WriteString(t.Name)
	for _, ep := range eps {
		key.WriteByte(0)
		key.WriteString(ep.action)
	}
	if rs, ok := p.views.Load(key.String()); ok {
		return rs.([]Route)
	}
	rs, _ := p.views.LoadOrStore(key.String(), p.expo.Expose(t, eps, p.env))
	return rs.([]Route)
}
