package edge

import (
	"context"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/engine"
)

// MaxViews bounds the per-caller views kept.
const MaxViews = 1024

// views are the per-caller views of one server's tools.
type Views struct {
	plan    *engine.Plan
	base    func(*engine.Endpoint) bool // the server's tag filters; nil lets all through
	class   func(*engine.Origin) string // nil: every caller is of one class
	visible func(string, ActionInfo) bool
	// scoped lists every scope some action requires: the part of a
	// token's scopes that can change a list.
	scoped []string

	sight engine.Sight // Sees, made once (presenter_sight.go)

	// The views computed so far: for calls by class, for lists by class
	// and the scopes granted (see list).
	mu    sync.RWMutex
	calls map[string]view
	lists map[string]view
}

// view is what one kind of caller sees: its routes by wire name.
type view map[string]engine.Route

// Views returns the per-caller views of a server with cfg's filters, or nil
// when every caller sees the same tools (no WithVisibility, no scopes).
func (a *Site) views(cfg *serveConfig) *Views {
	p := a.Plan
	scoped := a.Scopes
	if cfg.challenges {
		scoped = nil // a challenge asks for the scopes: lists keep the actions
	}
	if a.Class == nil && len(scoped) == 0 && !(cfg.filters() && (a.Suggests || p.Searching() || p.HasFlows())) && !p.SessionFlows() { // presenter_sight.go, engine/search.go, engine/gate_refusal.go, flow_notice.go
		return nil
	}
	vs := &Views{plan: p, class: a.Class, visible: a.Visible, scoped: scoped,
		calls: map[string]view{}, lists: map[string]view{}}
	vs.sight = vs.Sees // presenter_sight.go
	if cfg.filters() {
		vs.base = func(ep *engine.Endpoint) bool { return cfg.allows(ep.Tags()) }
	}
	return vs
}

// Seen is the route called name as the caller of o sees it, nil when it
// does not: own (the server's route of that name, nil when it has none)
// when every caller sees the same tools. vs may be nil. It also marks o
// with what the caller's lists leave out, for the errors it may read.
func (vs *Views) Seen(name string, own engine.Route, o *engine.Origin) engine.Route {
	if vs == nil {
		return own
	}
	o.HideUnscoped = len(vs.scoped) > 0
	o.Sight = vs.sight // presenter_sight.go
	if vs.class == nil {
		return own
	}
	return vs.route(name, o)
}

// route is the route called name for the caller of o, nil when the caller
// does not see it. Scopes do not hide a route here: a call of an action
// the token lacks scopes for reaches the pipeline, which names them.
func (vs *Views) route(name string, o *engine.Origin) engine.Route {
	class := ""
	if vs.class != nil {
		class = vs.class(o)
	}
	return vs.get(vs.calls, class, class, nil)[name]
}

// list is the view of the caller of o for tools/list: its class's, less
// the actions its token lacks scopes for.
func (vs *Views) list(o *engine.Origin) view { return vs.listIn(o, nil) }

// listIn is list for a caller whose session's workflows are in states
// (engine.Plan.SessionStates): less the actions those states do not
// allow.
func (vs *Views) listIn(o *engine.Origin, states map[string]string) view {
	class := ""
	if vs.class != nil {
		class = vs.class(o)
	}
	key, permits := vs.listed(class, o.Token)
	if len(states) > 0 {
		machines := slices.Sorted(maps.Keys(states))
		for _, m := range machines {
			key += "\x00" + m + "\x01" + states[m] // a machine's and a state's names are words (package workflow)
		}
		scoped := permits
		permits = func(ep *engine.Endpoint) bool { return scoped(ep) && ep.ListedIn(states) }
	}
	return vs.get(vs.lists, key, class, permits)
}

// listed returns the name of the list view of a caller of class with
// token, and the test of the actions its token has the scopes for.
func (vs *Views) listed(class string, token *auth.TokenInfo) (string, func(*engine.Endpoint) bool) {
	var granted []string
	if token != nil {
		for _, s := range vs.scoped {
			if slices.Contains(token.Scopes, s) {
				granted = append(granted, s)
			}
		}
	}
	key := class + "\x00" + strings.Join(granted, " ") // scopes hold neither NUL nor space
	return key, func(ep *engine.Endpoint) bool {
		for _, s := range ep.Scopes() {
			if !slices.Contains(granted, s) {
				return false
			}
		}
		return true
	}
}

// shows returns the test of the actions a caller of class sees: the
// server's filters, permits (nil lets all through) and the visibility
// rule.
func (vs *Views) shows(class string, permits func(*engine.Endpoint) bool) func(*engine.Endpoint) bool {
	return func(ep *engine.Endpoint) bool {
		if ep.Spec().Finder {
			return true // tool search's own tools: every caller's
		}
		if vs.base != nil && !vs.base(ep) {
			return false
		}
		if permits != nil && !permits(ep) {
			return false
		}
		return vs.visible == nil || vs.visible(class, actionInfo(ep))
	}
}

// get returns the view called key in cache, computing it on first use.
func (vs *Views) get(cache map[string]view, key, class string, permits func(*engine.Endpoint) bool) view {
	vs.mu.RLock()
	v, ok := cache[key]
	vs.mu.RUnlock()
	if ok {
		return v
	}
	routes := vs.plan.View(vs.shows(class, permits))
	v = make(view, len(routes))
	for _, r := range routes {
		v[r.Wire().Name] = r
	}
	vs.mu.Lock()
	if len(cache) < MaxViews {
		cache[key] = v
	}
	vs.mu.Unlock()
	return v
}

// listMiddleware gives each caller of the go-sdk's tools/list its own
// list: each tool of the page as the caller sees it, or not at all. It is
// nil when every caller lists every tool the go-sdk serves, and under tool
// search, whose listing is searchListing's.
func listMiddleware(vs *Views) mcp.Middleware {
	if vs == nil || vs.plan.Searching() {
		return nil
	}
	return toolsList(func(ctx context.Context, _ mcp.MethodHandler, list *mcp.ListToolsRequest, lr *mcp.ListToolsResult) (mcp.Result, error) {
		o := listOrigin(ctx, list)
		v := vs.listIn(&o, vs.plan.SessionStates(ctx, &o))
		out := *lr
		out.Tools = make([]*mcp.Tool, 0, len(lr.Tools))
		for _, t := range lr.Tools {
			if r, ok := v[t.Name]; ok {
				out.Tools = append(out.Tools, r.Wire())
			} else if !vs.plan.Has(t.Name) {
				out.Tools = append(out.Tools, t) // not the app's: the server's own
			}
		}
		return &out, nil
	})
}

// toolsList is a middleware that rewrites what the go-sdk answers a
// tools/list with (lr, its answer to list), and passes every other
// request, and every error, as it is; next is the handler behind, for a
// rewrite that asks it again.
func toolsList(rewrite func(ctx context.Context, next mcp.MethodHandler, list *mcp.ListToolsRequest, lr *mcp.ListToolsResult) (mcp.Result, error)) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			lr, ok := res.(*mcp.ListToolsResult)
			if method != "tools/list" || err != nil || !ok || lr == nil {
				return res, err
			}
			list, ok := req.(*mcp.ListToolsRequest)
			if !ok {
				return res, err
			}
			return rewrite(ctx, next, list, lr)
		}
	}
}

// listOrigin is the origin of a tools/list request.
func listOrigin(ctx context.Context, list *mcp.ListToolsRequest) engine.Origin {
	var meta mcp.Meta
	if list.Params != nil {
		meta = list.Params.Meta
	}
	return OriginOf(ctx, list, meta)
}

// actionInfo is what a visibility rule knows of ep.
func actionInfo(ep *engine.Endpoint) ActionInfo {
	s := ep.Spec()
	tool := strings.TrimSuffix(ep.Key(), "."+s.Key)
	return ActionInfo{Tool: tool, Action: s.Key, Key: ep.Key(), Tags: ep.Tags(), Annotations: ep.Annotations(), Scopes: ep.Scopes()}
}
