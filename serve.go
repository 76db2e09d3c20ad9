package vurb

import (
	"context"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/edge"
	"github.com/vurb-go/vurb/internal/edge/stdio"
	"github.com/vurb-go/vurb/internal/engine"
)

// site is the app as the serving edge sees it, lowered once, after Build:
// the plan and what the app declared beyond it.
func (a *App) site() *edge.Site {
	p := a.built()
	a.edgeOnce.Do(func() {
		s := &edge.Site{Plan: p, Name: a.cfg.name, Version: a.cfg.version, Instructions: a.cfg.instructions,
			Logger: a.cfg.logger, RequestMW: a.cfg.requestMW, ServerOptions: a.cfg.serverOpts,
			Scopes: a.requiredScopes(), MaxBytes: a.cfg.limits.MaxBytes, NotifyBuffer: a.cfg.notifyBuffer,
			ListTTL: a.cfg.listTTL, ListTTLSet: a.cfg.listTTLSet, Visible: edgeVisible(a.cfg.visible), Suggests: a.suggests(),
			Tasks: a.tasks(false), Bus: a.cfg.replicas.Bus, SessionStore: a.cfg.replicas.Sessions,
			DrainDelay: a.cfg.drainDelay}
		if p.SessionFlows() {
			p.Runtime().OnSessionMoved(s.ToolsChanged) // a session's list follows its workflow
		}
		if s.Tasks != nil && a.cfg.replicas.Tasks != nil {
			s.Tasks.Share(a.cfg.replicas.Tasks)
		}
		if class := a.cfg.class; class != nil {
			s.Class = func(o *engine.Origin) string { return class(callerOf(o)) }
		}
		for _, pr := range a.prompts {
			s.Prompts = append(s.Prompts, edge.Prompt{Name: pr.name, Completers: completers(pr.completers)})
		}
		for _, r := range a.resources {
			s.Resources = append(s.Resources, edge.Resource{URI: r.uri, Matches: r.matches, TTL: r.ttl, Public: r.public,
				Completers: completers(r.completers)})
		}
		s.Register = func(server *mcp.Server, rt *engine.Runtime) {
			for _, pr := range a.prompts {
				pr.register(server, rt)
			}
			for _, r := range a.resources {
				r.register(server, rt)
			}
		}
		if !a.skills.Empty() {
			s.Extend, s.Capabilities = a.serveSkills, a.skillCapabilities
		}
		s.SkillCacheable = func(req mcp.Request, c *mcp.Cacheable, listTTLMs int) { a.skillCacheable(req, c, listTTLMs) }
		a.edge = s
	})
	return a.edge
}

// completers are cs as the edge holds them.
func completers(cs map[string]Completer) map[string]edge.Completer {
	out := make(map[string]edge.Completer, len(cs))
	for k, c := range cs {
		out[k] = c
	}
	return out
}

// NewServer returns a go-sdk server with everything the app declares: its
// tools (through opts' tag filters), prompts, resources, completions and
// resource subscriptions. Use it to run the server on a transport of your
// own; Serve and HTTPHandler use it too. It panics when opts hold an HTTP
// setting (WithStateless, WithAllowedHosts, ...), which a bare server cannot honour:
// pass those to HTTPHandler or ListenAndServe.
func (a *App) NewServer(opts ...ServeOption) *mcp.Server {
	return a.site().NewServer(serveOptions(opts)...)
}

// Serve runs the app on transport (Stdio() for desktop clients) until the
// client disconnects or ctx is cancelled; a cancelled ctx is a clean stop
// and returns nil. Like NewServer, it panics on HTTP settings in opts.
// Its callers are anonymous unless WithLocalToken states who they are.
func (a *App) Serve(ctx context.Context, transport mcp.Transport, opts ...ServeOption) error {
	return a.site().Serve(ctx, transport, serveOptions(opts)...)
}

// ToolServer is what Attach needs of an MCP server. *mcp.Server implements
// it; a test double or a wrapper can stand in for it.
type ToolServer interface {
	AddTool(t *mcp.Tool, h mcp.ToolHandler)
	RemoveTools(names ...string)
}

// Attach registers the app's compiled tools, in the app's exposition and
// through opts' tag filters, on server, with vurb's own decoding and
// validation (the SDK's low-level AddTool validates nothing a second time).
// It builds the app if needed and returns a function that removes exactly
// the tools it added.
//
// Attach compiles nothing: it hands the SDK the tools and handlers built
// once at Build, or, through a filter, a view of them derived from the
// plan (a grouped tool some of whose actions are hidden is listed over the
// others, sharing their compiled chains). Attaching to a fresh server per
// request, as a stateless deployment may, costs little more than AddTool
// itself. Like NewServer, it panics on HTTP settings in opts.
//
// Calls through an attached tool keep every rule of the app: scopes, and
// the caller's view under WithVisibility. On an *mcp.Server, Attach also
// filters tools/list per caller (the app's tools only; the server's own
// are listed as they are); on another ToolServer, the list is yours.
func (a *App) Attach(server ToolServer, opts ...ServeOption) (detach func()) {
	return a.site().Attach(server, serveOptions(opts)...)
}

// Stdio returns the standard input/output transport that desktop clients
// (Claude Desktop, IDEs) use to run a server as a child process: one
// JSON-RPC message per line. A line that is not JSON is answered with a
// parse error (-32700), one that is JSON but not a JSON-RPC 2.0 message
// (a batch, another version) with an invalid-request error (-32600), and
// the server reads on; see WithMaxLineBytes and WithMaxInFlight for its bounds.
func Stdio(opts ...StdioOption) mcp.Transport {
	each := make([]stdio.Option, len(opts))
	for i, o := range opts {
		each[i] = o.edge
	}
	return stdio.Standard(each...)
}

// NotifyResourceUpdated tells every client subscribed to uri that it
// changed (notifications/resources/updated), on every server the app made.
// It waits on no subscriber: each has a queue of its own (see
// WithNotifyBuffer), and one that does not read misses what does not fit.
// It stops early, with ctx's error, when ctx is done. A session may be
// subscribed to at most 100 resources at once, of URIs up to 2 KiB; what
// it subscribed to is forgotten when it ends.
func (a *App) NotifyResourceUpdated(ctx context.Context, uri string) error {
	return a.site().NotifyResourceUpdated(ctx, uri)
}

// TTL says how long a client may cache what a read of the resource
// returns (default: not at all), and that the cache may be shared between
// users (cacheScope "public") when public is true.
func (r *ResourceDef) TTL(d time.Duration, public bool) *ResourceDef {
	r.app.mustBeMutable()
	r.ttl, r.public = max(d, 0), public
	return r
}
