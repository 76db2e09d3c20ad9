package engine

import (
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

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
			// The caller's view of it, listed for what the caller is
			// shown: a grouped tool whose always-load action the caller
			// cannot see is not listed for its other actions.
			if r = view[r.Wire().Name]; r == nil || !slices.ContainsFunc(r.Endpoints(), listedAlone) {
				continue
			}
		}
		out = append(out, r)
	}
	return out
}

// listedAlone reports whether ep makes its tool listed under search.
func listedAlone(ep *Endpoint) bool { return ep.spec.Finder || ep.spec.AlwaysLoad }

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
