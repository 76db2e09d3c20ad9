package engine

import (
	"cmp"
	"slices"
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
// model calls it by (a flat tool's, or a grouped tool's action as
// "invoices.list", whose words are the action's too), the author's words,
// and its parameters.
func searchDoc(r Route, ep *Endpoint) search.Doc {
	name := ep.key
	if w := r.Wire().Name; w != ep.tool {
		name = w // flat: "invoices_list", as the model would search it
	}
	d := search.Doc{Name: name, Hint: ep.spec.Hint, Description: ep.spec.Description, Tags: ep.spec.Tags}
	for _, f := range ep.spec.In.Fields() {
		d.Params = append(d.Params, search.Param{Name: f.Name, Description: cmp.Or(f.Description, f.Title)})
	}
	return d
}

// Searching reports whether the plan serves tool search.
func (p *Plan) Searching() bool { return p.finder != nil }

// Search returns the wire tools that best match query, best first, at
// most limit of them, each as the caller of o lists it without search: a
// grouped tool some of whose actions the caller is not shown is the
// caller's view of it, and a tool none of whose actions it is shown is
// never found. It returns nil when the plan does not search.
//
// The index ranks actions; a grouped tool is found once, at the rank of
// its best action, and when its actions crowd a round of hits the next
// round leaves out the tools found, so that limit tools come back while
// the query matches that many. A round costs one query; there are at
// most limit rounds.
func (p *Plan) Search(query string, limit int, o *Origin) []*mcp.Tool {
	f := p.finder
	if f == nil || limit <= 0 {
		return nil
	}
	var sees func(wire, key string) bool
	if o != nil && o.Sight != nil {
		sees = o.Sight(o)
	}
	var found [search.MaxLimit]int
	routes := found[:0]
	allow := func(doc int) bool {
		d := f.docs[doc]
		return !slices.Contains(routes, d.route) && (sees == nil || sees(p.routes[d.route].Wire().Name, d.ep.key))
	}
	var buf [search.MaxLimit]search.Hit
	out := make([]*mcp.Tool, 0, limit)
	for len(out) < limit {
		hits := f.index.Search(query, search.MaxLimit, allow, buf[:0])
		added := len(routes)
		for _, h := range hits {
			i := f.docs[h.Doc].route
			if slices.Contains(routes[added:], i) {
				continue
			}
			routes = append(routes, i)
			out = append(out, p.seenWire(i, sees))
			if len(out) == limit {
				break
			}
		}
		if len(hits) < search.MaxLimit || len(routes) == added {
			break // the query matches nothing more
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
