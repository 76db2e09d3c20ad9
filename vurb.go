package vurb

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/edge"
	"github.com/vurb-go/vurb/internal/edge/tasks"
	"github.com/vurb-go/vurb/internal/engine"
)

// App is a vurb server definition: its tools, their actions, prompts,
// resources and the app-wide middleware. It is mutable until Build (or the
// first Call, Attach or Serve), then frozen: Build lowers it to an
// immutable plan that owns everything a call needs, shared by every call,
// so an App serves any number of goroutines without locks.
//
// Defining an App (New, Tool, Query, Use, ...) is not safe for concurrent
// use; calling a built App is.
type App struct {
	cfg        config
	tools      []*Tool
	toolIndex  map[string]*Tool
	middleware []Middleware
	scopes     []string // required of every call, prompt and resource (caller.go)
	// searchReserved: tool search's tools are defined, and their names
	// are no one else's (search.go).
	searchReserved bool
	prompts        []*PromptDef
	resources      []*ResourceDef
	categories     []*Category // in the order made, children included (category.go)
	skills         skillSet    // skill.go
	presented      *presenting // what they compile to, at Build

	buildMu sync.Mutex
	plan    atomic.Pointer[engine.Plan]
	frozen  atomic.Bool

	// edge is the app as the serving edge sees it, made once built (site).
	edgeOnce sync.Once
	edge     *edge.Site

	// taskTab is what the app declared about tasks (task_registry.go),
	// nil until an action runs as a task.
	taskMu  sync.Mutex
	taskTab *tasks.TaskTable
}

// New returns an empty App configured by opts.
func New(opts ...Option) *App {
	a := &App{cfg: defaultConfig(), toolIndex: map[string]*Tool{}}
	for _, opt := range opts {
		opt(&a.cfg)
	}
	a.cfg.finish()
	if a.cfg.search != nil {
		a.addSearchTools()
	}
	return a
}

// Tool returns the tool called name, creating it on first use, so actions
// can be added to it from several places. It panics when name is not a
// valid tool name or when the app is built.
func (a *App) Tool(name string) *Tool {
	if t, ok := a.toolIndex[name]; ok {
		return t
	}
	a.mustBeMutable()
	if why := engine.CheckSegmentName(name); why != "" {
		panic(fmt.Sprintf("vurb: invalid tool name %q: %s", name, why))
	}
	if a.searchReserved && (name == engine.SearchToolsName || name == engine.CallToolName) {
		panic(fmt.Sprintf("vurb: the tool name %q is tool search's (WithToolSearch): name yours otherwise", name))
	}
	t := &Tool{app: a, name: name}
	a.tools = append(a.tools, t)
	a.toolIndex[name] = t
	return t
}

// Use appends app-wide middleware. App middleware is the outermost layer:
// it runs before tool, group and action middleware.
func (a *App) Use(mw ...Middleware) *App {
	a.mustBeMutable()
	a.middleware = append(a.middleware, checkMiddleware("app", mw)...)
	return a
}

// Build lowers every definition to the compiled plan, once, and freezes the
// App. Later calls return at once. Build panics on definition errors that
// only the whole picture reveals (a wire name too long, a field declared
// with two types across a grouped tool's actions, ...), so call it at
// start-up, where such a panic belongs; Call, Attach and Serve call it for
// you.
func (a *App) Build() {
	a.built()
}

// built returns the compiled plan, building it on first use.
func (a *App) built() *engine.Plan {
	if p := a.plan.Load(); p != nil {
		return p
	}
	a.buildMu.Lock()
	defer a.buildMu.Unlock()
	if p := a.plan.Load(); p != nil {
		return p
	}
	a.frozen.Store(true)
	p := engine.Compile(a.lower())
	a.plan.Store(p)
	return p
}

// Call runs the tool called name with args in-process, through the same
// pipeline a served call takes: route lookup, discriminator (grouped
// exposition), strict decoding and validation, the middleware chain, the
// handler, the result. It builds the app on first use.
//
// Mistakes a model can fix (bad arguments, an unknown action, a handler
// error, a timeout, a panic) are results with IsError set and a text that
// says what to do. The error return is for protocol failures: an unknown
// tool (a *jsonrpc.Error with code InvalidParams, as the MCP spec asks) or
// the caller's context being cancelled.
//
// The caller ContextWithCaller puts in ctx (none: an anonymous caller) is
// held to every rule a served call is: scopes, and under WithVisibility
// its class's view, in which a hidden tool is unknown and a hidden action
// of a grouped tool an unknown action.
func (a *App) Call(ctx context.Context, name string, args json.RawMessage) (*mcp.CallToolResult, error) {
	return a.site().Call(ctx, name, args, originOfContext(ctx))
}

// Tools returns the compiled tools/list entries, in declaration order,
// building the app if needed. The slice and the tools are shared: do not
// modify them.
func (a *App) Tools() []*mcp.Tool {
	return a.built().Tools()
}

// namespaceFor resolves a dotted name given to the app ("projects.list" or
// "admin.users.list") into the namespace that owns the last segment.
func (a *App) namespaceFor(name string) (namespace, string) {
	parts := strings.Split(name, ".")
	switch len(parts) {
	case 1:
		// A tool that is one action: its wire name is the tool's.
		return soloNamespace{a.Tool(parts[0])}, ""
	case 2:
		return a.Tool(parts[0]), parts[1]
	case 3:
		return a.Tool(parts[0]).groupOrNew(parts[1]), parts[2]
	default:
		panic(fmt.Sprintf("vurb: action name %q given to the app must be \"tool\", \"tool.action\" or \"tool.group.action\"; "+
			"or add the action to a tool: vurb.Query(app.Tool(\"name\"), \"action\", handler)", name))
	}
}

func (a *App) mustBeMutable() {
	if a.frozen.Load() {
		panic("vurb: the app is built and frozen: it cannot be changed; define every tool before Build, Call, Attach or Serve")
	}
}
