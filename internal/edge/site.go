// Package edge serves a built app: the HTTP stack, bearer auth, the front
// door, scope challenges, the fast lane and the session lane, the
// per-caller views, the session quota, the tasks extension and the go-sdk
// server vurb puts behind them. It stands apart from the root package,
// which holds what a user declares and configures, so that the compiler
// holds the boundary: edge never imports the root. The root hands it a
// Site (what one app declared, lowered to plain data and functions) and
// the serve options; internal/engine answers the calls.
//
// What stands alone lives in packages below it, which import nothing of
// it: wire (each request read and parsed once, the one list of request
// rules every front applies, answers encoded as the go-sdk encodes them),
// guard (the HTTP guards: client address, Host and Origin, connection
// bound), tasks (the tasks extension, its front and its runs), bus (the
// replicas' bus: what one replica learns that the others act on, sealed
// and checked), sessions (the records of the handshake-era sessions,
// shared through a store, and their quota), lane (the fast lane and the
// session lane, answering the common calls from the compiled plan),
// fault (the one answer to a panic or a handler's error), stdio (the
// stdio transport) and inflight (the drained signal). Each names what it
// needs of the edge as interfaces of its own (seams.go), which the
// edge's own types meet (tasks_site.go, bus_site.go, lane_site.go, and
// the session table set up in stack.go).
//
// How a served tools/call flows is written once, in the doc comment of
// httpServing (stack.go).
package edge

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/edge/bus"
	"github.com/vurb-go/vurb/internal/edge/tasks"
	"github.com/vurb-go/vurb/internal/engine"
	"github.com/vurb-go/vurb/store"
)

// A Site is one built app as the edge sees it: the compiled plan and what
// the root declared beyond it. The root makes one per app, at build, and
// keeps it for the app's life: the Site owns what the app's servers share
// (the servers made, the task table, the in-process views).
type Site struct {
	Plan                        *engine.Plan
	Name, Version, Instructions string
	Logger                      *slog.Logger
	// RequestMW is WithRequestMiddleware's, outermost first.
	RequestMW []mcp.Middleware
	// ServerOptions is WithServerOptions' (nil: none).
	ServerOptions *mcp.ServerOptions
	// Scopes are every scope the app requires somewhere: of every call,
	// prompt and resource (RequireScopes on the app) or of an action.
	Scopes []string
	// MaxBytes bounds a call's arguments.
	MaxBytes     int
	NotifyBuffer int
	ListTTL      time.Duration
	ListTTLSet   bool
	// Class names a caller's kind under WithVisibility (nil: one kind);
	// Visible says whether a kind sees an action.
	Class   func(*engine.Origin) string
	Visible func(class string, a ActionInfo) bool
	// Suggests reports whether presenters suggest actions, whose sight
	// needs the caller's view even without WithVisibility.
	Suggests bool

	// Prompts and Resources are what completions, subscriptions and
	// resources/read's cache hints need of the declared ones.
	Prompts   []Prompt
	Resources []Resource
	// Extend gives a server the app's extensions (skills), their methods
	// and middleware inside the request middleware, as tools are;
	// cacheable is the server's SetCacheable.
	Extend func(server *mcp.Server, rt *engine.Runtime, cacheable func(context.Context, mcp.Request, *mcp.Cacheable))
	// Register adds the app's prompts and resources to a server.
	Register func(server *mcp.Server, rt *engine.Runtime)
	// Capabilities adds the app's extensions' capabilities (nil: none).
	Capabilities func(*mcp.ServerCapabilities) *mcp.ServerCapabilities
	// SkillCacheable sets the cache hints of skills' lists and files.
	SkillCacheable func(req mcp.Request, c *mcp.Cacheable, listTTLMs int)
	// Tasks is what the app declared about tasks (nil: no task action).
	Tasks *tasks.TaskTable
	// Bus carries what one replica learns to the others (WithReplicas;
	// nil: one process, no bus). SessionStore is the handlers' session
	// store when their options name none.
	Bus          store.Bus
	SessionStore store.Sessions
	// DrainDelay is how long a drain keeps serving, readiness off,
	// before it stops accepting (vurb.WithDrainDelay).
	DrainDelay time.Duration

	servers weakSet[mcp.Server]
	// noticed are the servers, the app's own and those it is attached to,
	// whose sending middleware turns vurb's marked notice into
	// notifications/tools/list_changed (flow_notice.go).
	noticed weakSet[mcp.Server]
	// servings are the app's HTTP handlers, which a drain (drain.go)
	// answers, closes and cuts; draining is set once one starts, and
	// turns readiness off (health.go); store is what the probes of the
	// shared store last found.
	servings weakSet[httpServing]
	draining atomic.Bool
	store    storeHealth

	hubOnce sync.Once
	hub     *bus.Hub
	// busFronts are the fronts that hold sessions, which the hub
	// delivers to (bus_site.go): a handler may be dropped.
	busFronts weakSet[front]

	callViewsOnce sync.Once
	callViews     *Views
}

// A Completer offers values for one argument of a prompt or a resource
// template.
type Completer = func(ctx context.Context, typed string, others map[string]string) ([]string, error)

// Prompt is what the edge needs of a declared prompt.
type Prompt struct {
	Name       string
	Completers map[string]Completer
}

// Resource is what the edge needs of a declared resource or template.
type Resource struct {
	URI        string
	Matches    func(uri string) bool
	TTL        time.Duration
	Public     bool
	Completers map[string]Completer
}

// ActionInfo is what a visibility rule knows of an action: everything
// that decides who may see it, without its handler.
type ActionInfo struct {
	Tool   string // "projects"
	Action string // "list", "users.list"; "" for a one-action tool
	Key    string // "projects.list"
	// Tags are the action's, its group's and its tool's.
	Tags []string
	// Annotations are the action's own (read-only, destructive, ...).
	Annotations *mcp.ToolAnnotations
	// Scopes are those RequireScopes asks of its callers.
	Scopes []string
}
