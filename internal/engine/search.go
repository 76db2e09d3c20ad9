package engine

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/search"
)

// Tool search (vurb.WithToolSearch): tools/list lists two tools, one that
// finds the app's tools and one that calls what was found, and the tools
// marked always-load; every tool stays callable by its own name. The
// index is built once, with the plan; a call of call_tool is the call it
// carries, unwrapped where each path reads a call (Resolve), so that
// scopes, limits, tasks and observers see the tool it names.

// The names of tool search's two tools.
const (
	SearchToolsName = "search_tools"
	CallToolName    = "call_tool"
)

// MetaAlwaysLoad is the _meta key that tells a client with tool search of
// its own to keep a listed tool loaded (Anthropic's convention).
const MetaAlwaysLoad = "anthropic/alwaysLoad"

// Index is a built search index (search.Index).
type Index interface {
	Search(query string, limit int, allow func(doc int) bool, hits []search.Hit) []search.Hit
}

// finder is a plan's search: the index over its actions and, for each
// doc, the route that lists it.
type finder struct {
	index Index
	docs  []finding // by doc number
	// listed are the routes tools/list lists: the two search tools and
	// those holding an always-load action, by index in Plan.routes.
	listed []int
	// loaded are the always-load routes' wire tools as listed, with the
	// _meta that marks them, by the route's own wire tool (a caller's
	// view of a grouped tool is listed with it as well).
	loaded sync.Map // *mcp.Tool -> *mcp.Tool
}

// finding is what a doc of the index stands for.
type finding struct {
	route int // in Plan.routes
	ep    *Endpoint
}

// buildFinder indexes every action of p but the search tools.
func buildFinder(p *Plan, build func([]search.Doc) Index) *finder {
	f := &finder{}
	var docs []search.Doc
	for i, r := range p.routes {
		listed := false
		for _, ep := range r.Endpoints() {
			if ep.spec.Finder {
				listed = true
				continue
			}
			listed = listed || ep.spec.AlwaysLoad
			f.docs = append(f.docs, finding{route: i, ep: ep})
			docs = append(docs, searchDoc(r, ep))
		}
		if listed {
			f.listed = append(f.listed, i)
		}
	}
	f.index = build(docs)
	return f
}

// searchDoc is what search reads of ep, reached through r: the name the
// model calls it by, the author's words, and its parameters.
func searchDoc(r Route, ep *Endpoint) search.Doc {
	name := ep.key // a grouped tool's action: "invoices.list"
	if len(r.Endpoints()) == 1 {
		name = r.Wire().Name
	}
	d := search.Doc{Name: name, Hint: ep.spec.Hint, Description: ep.spec.Description, Tags: ep.spec.Tags}
	for _, f := range ep.spec.In.Fields() {
		d.Params = append(d.Params, search.Param{Name: f.Name, Description: cmpOr(f.Description, f.Title)})
	}
	return d
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// Searching reports whether the plan serves tool search.
func (p *Plan) Searching() bool { return p.finder != nil }

// Search returns the wire tools that best match query, best first, at
// most limit of them, each as the caller of o lists it without search: a
// grouped tool some of whose actions the caller is not shown is the
// caller's view of it, and a tool none of whose actions it is shown is
// never found. It returns nil when the plan does not search.
func (p *Plan) Search(query string, limit int, o *Origin) []*mcp.Tool {
	f := p.finder
	if f == nil || limit <= 0 {
		return nil
	}
	var sees func(wire, key string) bool
	var allow func(doc int) bool
	if o != nil && o.Sight != nil {
		sees = o.Sight(o)
		allow = func(doc int) bool {
			d := f.docs[doc]
			return sees(p.routes[d.route].Wire().Name, d.ep.key)
		}
	}
	var buf [search.MaxLimit]search.Hit
	hits := f.index.Search(query, search.MaxLimit, allow, buf[:0])
	out := make([]*mcp.Tool, 0, min(limit, len(hits)))
	var routes [search.MaxLimit]int
	seen := routes[:0]
	for _, h := range hits {
		i := f.docs[h.Doc].route
		if containsInt(seen, i) {
			continue
		}
		seen = append(seen, i)
		out = append(out, p.seenWire(i, sees))
		if len(out) == limit {
			break
		}
	}
	return out
}

// seenWire is the wire tool of route i as a caller who sees what sees
// lets through (nil: everything) is shown it.
func (p *Plan) seenWire(i int, sees func(wire, key string) bool) *mcp.Tool {
	r := p.routes[i]
	if sees == nil || len(r.Endpoints()) == 1 {
		return r.Wire()
	}
	all := r.Endpoints()
	kept := make([]*Endpoint, 0, len(all))
	for _, ep := range all {
		if sees(r.Wire().Name, ep.key) {
			kept = append(kept, ep)
		}
	}
	if len(kept) == len(all) {
		return r.Wire()
	}
	return p.partial(p.specs[p.owners[i]], kept)[0].Wire()
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// Listing returns what tools/list lists under search of view (a caller's
// view, by wire name; nil for the whole plan): the two search tools and the tools holding an always-load
// action, marked with MetaAlwaysLoad, sorted by name as the go-sdk lists.
func (p *Plan) Listing(view map[string]Route) []*mcp.Tool {
	routes := p.ListedRoutes(view)
	out := make([]*mcp.Tool, len(routes))
	for i, r := range routes {
		out[i] = p.ListedWire(r)
	}
	slices.SortFunc(out, func(a, b *mcp.Tool) int { return strings.Compare(a.Name, b.Name) }) // as the go-sdk lists
	return out
}

// ListedRoutes are the routes of view (nil: the whole plan) that
// tools/list lists under search, in declaration order; nil without
// search.
func (p *Plan) ListedRoutes(view map[string]Route) []Route {
	if p.finder == nil {
		return nil
	}
	out := make([]Route, 0, len(p.finder.listed))
	for _, i := range p.finder.listed {
		r := p.routes[i]
		if view != nil {
			if r = view[r.Wire().Name]; r == nil {
				continue
			}
		}
		out = append(out, r)
	}
	return out
}

// ListedWire is r's wire tool as tools/list lists it under search: an
// always-load tool's is marked with MetaAlwaysLoad.
func (p *Plan) ListedWire(r Route) *mcp.Tool {
	own := r.Wire()
	if eps := r.Endpoints(); len(eps) == 1 && eps[0].spec.Finder {
		return own
	}
	if t, ok := p.finder.loaded.Load(own); ok {
		return t.(*mcp.Tool)
	}
	t := *own
	t.Meta = mcp.Meta{}
	for k, v := range own.Meta {
		t.Meta[k] = v
	}
	t.Meta[MetaAlwaysLoad] = true
	got, _ := p.finder.loaded.LoadOrStore(own, &t)
	return got.(*mcp.Tool)
}

// Listed reports whether tools/list lists the wire tool called name.
func (p *Plan) Listed(name string) bool {
	if p.finder == nil {
		return p.Has(name)
	}
	for _, i := range p.finder.listed {
		if p.routes[i].Wire().Name == name {
			return true
		}
	}
	return false
}

// Resolve returns the tool a tools/call of name with args runs, and its
// arguments: under tool search, a call of call_tool is the call it
// carries. It reports false, and name and args as they are, for any
// other call, and for a call_tool whose arguments are not a tool's name
// and an object of arguments (call_tool's own validation answers it).
// It copies nothing: the inner arguments are a part of args.
func (p *Plan) Resolve(name string, args json.RawMessage) (string, json.RawMessage, bool) {
	if p.finder == nil || name != CallToolName {
		return name, args, false
	}
	inner, innerArgs, ok := Unwrap(args)
	if !ok {
		return name, args, false
	}
	return inner, innerArgs, true
}

// Unwrap reads call_tool's arguments: {"name": string, "arguments"?:
// object}, members named exactly so (as the go-sdk reads a request), and
// nothing else. A name that is call_tool itself is refused: a call
// carries one call.
func Unwrap(args json.RawMessage) (name string, inner json.RawMessage, ok bool) {
	var members map[string]json.RawMessage
	if json.Unmarshal(args, &members) != nil || members == nil {
		return "", nil, false
	}
	for k := range members {
		if k != "name" && k != "arguments" {
			return "", nil, false
		}
	}
	if json.Unmarshal(members["name"], &name) != nil || name == "" || name == CallToolName {
		return "", nil, false
	}
	inner = members["arguments"]
	switch t := bytes.TrimSpace(inner); {
	case len(t) == 0:
		inner = json.RawMessage("{}")
	case t[0] != '{':
		return "", nil, false
	}
	return name, inner, true
}
