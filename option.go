package vurb

import (
	"context"
	"fmt"
	"log/slog"
	"reflect"
	"time"

	ipresenter "github.com/vurb-go/vurb/internal/presenter"
	"github.com/vurb-go/vurb/internal/search"

	"github.com/go-playground/validator/v10"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"github.com/vurb-go/vurb/describe"
	"github.com/vurb-go/vurb/dpop"
	"github.com/vurb-go/vurb/internal/edge"
	"github.com/vurb-go/vurb/internal/edge/stdio"
	"github.com/vurb-go/vurb/internal/engine"
	"github.com/vurb-go/vurb/internal/limit"
	"github.com/vurb-go/vurb/observe"
	"github.com/vurb-go/vurb/presenter"
	"github.com/vurb-go/vurb/schema"
	"github.com/vurb-go/vurb/servercard"
	"github.com/vurb-go/vurb/store"
)

// defaultTimeout bounds every call that sets no timeout of its own. A model
// waiting on a tool cannot tell a slow tool from a dead one, so every call
// ends, one way or another, within a known time.
const defaultTimeout = 30 * time.Second

// defaultSeparator joins a tool and its action into a flat wire name
// (projects_list): the underscore is accepted by every MCP client.
const defaultSeparator = "_"

// Option configures an App at New.
type Option func(*config)

// config is what the options set. Build lowers it into the plan's
// runtime; a call reads the runtime, never the config.
type config struct {
	name         string
	version      string
	instructions string
	exposition   Exposition
	separator    string
	timeout      time.Duration
	limits       schema.Limits
	logger       *slog.Logger
	policies     []Policy
	defaultCache CacheControl
	observers    []observe.Observer
	resultFormat ResultFormat
	describer    describe.Describer
	inline       bool
	messages     Messages
	serverOpts   *mcp.ServerOptions
	stateKeys    [][]byte
	stateMaxAge  time.Duration
	listTTL      time.Duration
	listTTLSet   bool
	requestMW    []mcp.Middleware
	logContext   func(context.Context) []slog.Attr
	class        func(*Caller) string // WithVisibility
	visible      func(string, ActionInfo) bool
	skillVisible func(string, SkillInfo) bool    // WithSkillVisibility
	presenters   []*presenterDef                 // WithPresenters (presenter.go)
	search       func([]search.Doc) engine.Index // WithToolSearch (search.go)

	// bounds (limits.go, notify_queue.go)
	maxRunning   int
	notifyBuffer int

	// limits of calls (limits.go)
	callLimits limitSet
	rateStore  store.Rates

	drainDelay time.Duration  // WithDrainDelay
	tasks      TaskConfig     // WithTasks (task.go)
	shared     store.Shared   // WithReplicas
	replicas   store.Replicas // shared's, for the app's name (finish)

	// The validator the app's codecs run: made by finish, with the rules
	// WithRule registered.
	rules     []rule
	validator *schema.Validator
}

// rule is a custom validation rule registered with WithRule.
type rule struct {
	tag     string
	fn      validator.Func
	message string
	opts    []schema.RuleOption
}

func defaultConfig() config {
	return config{
		name:       "vurb",
		version:    "0.0.0",
		exposition: Flat,
		separator:  defaultSeparator,
		timeout:    defaultTimeout,
		limits:     schema.Limits{MaxBytes: schema.DefaultMaxBytes, MaxDepth: schema.DefaultMaxDepth},
		logger:     slog.Default(),
		messages:   DefaultMessages(),
		maxRunning: defaultMaxRunning,
		callLimits: limitSet{MaxOutput: defaultMaxOutput},
	}
}

// finish makes what depends on several options, once they are all read.
func (c *config) finish() {
	if c.shared != nil {
		if len(c.stateKeys) == 0 {
			panic("vurb: WithReplicas needs WithRequestStateKeys: the replicas authenticate their bus and open each other's input-request state with those keys; give every replica the same 32 random bytes")
		}
		c.replicas = c.shared.ForApp(c.name)
	}
	c.validator = schema.NewValidator(nil) // the app's own: two apps share no schema state
	for _, r := range c.rules {
		if err := c.validator.RegisterRule(r.tag, r.fn, r.message, r.opts...); err != nil {
			panic(fmt.Sprintf("vurb: WithRule(%q): %v", r.tag, err))
		}
	}
}

// codecFor is the codec of an input struct under the app's validator.
func (a *App) codecFor(t reflect.Type) *schema.Codec { return a.cfg.validator.CodecFor(t) }

// decodeOptions are the limits and texts every decode of the app uses.
func (a *App) decodeOptions() schema.DecodeOptions {
	return schema.DecodeOptions{Limits: a.cfg.limits, Messages: a.cfg.messages.Schema}
}

// WithName sets the server name announced at initialize.
func WithName(name string) Option { return func(c *config) { c.name = name } }

// WithVersion sets the server version announced at initialize.
func WithVersion(version string) Option { return func(c *config) { c.version = version } }

// WithInstructions sets the instructions a client may show its model at initialize.
func WithInstructions(text string) Option { return func(c *config) { c.instructions = text } }

// WithExposition chooses how actions reach the wire: Flat (the default, one
// MCP tool per action) or Grouped (one MCP tool per tool, with a
// discriminator). Handlers never change when it does.
// It panics on a value that is neither.
func WithExposition(e Exposition) Option {
	if e < 0 || int(e) >= len(expositions) {
		panic(fmt.Sprintf("vurb: WithExposition(%d): use vurb.Flat or vurb.Grouped", int(e)))
	}
	return func(c *config) { c.exposition = e }
}

// WithSeparator sets the string between tool, group and action in flat wire
// names (default "_": projects_list, the one separator every MCP client
// accepts). It must keep names within the MCP tool-name alphabet
// (A-Za-z0-9_-.).
func WithSeparator(sep string) Option { return func(c *config) { c.separator = sep } }

// WithTimeout sets the app-wide call deadline (default 30 s); tools and
// actions may set their own with Timeout. Zero or less keeps the default.
// A model waiting on a tool cannot tell a slow tool from a dead one, so
// every call ends, one way or another, within a known time.
func WithTimeout(d time.Duration) Option {
	return func(c *config) {
		if d > 0 {
			c.timeout = d
		}
	}
}

// WithMaxArgumentBytes bounds the size of one call's arguments (default
// schema.DefaultMaxBytes, 1 MiB). Larger arguments are refused before any
// decoding.
func WithMaxArgumentBytes(n int) Option {
	return func(c *config) {
		if n > 0 {
			c.limits.MaxBytes = n
		}
	}
}

// WithMaxDepth bounds the nesting depth of one call's arguments (default
// schema.DefaultMaxDepth, 64). Deeper arguments are refused before decoding.
func WithMaxDepth(n int) Option {
	return func(c *config) {
		if n > 0 {
			c.limits.MaxDepth = n
		}
	}
}

// WithLogger sets the logger that receives recovered panics (with their
// stack), serving errors and the go-sdk's warnings (its per-session Info
// lines are dropped), and that Logger(ctx) hands to handlers. The default
// is slog.Default().
func WithLogger(l *slog.Logger) Option {
	return func(c *config) {
		if l != nil {
			c.logger = l
		}
	}
}

// WithRule registers a custom validation rule (an SKU format, a country
// code, a cross-field check) on the app's own validator, so that
// `validate:"tag"` in an input struct runs fn, and a call it refuses reads
// message (a %s in it receives the rule's parameter; Messages.Schema.Rules
// can reword it). Rules are per app: two apps in one process can have
// different ones. opts say what the rule adds to the schema a model reads
// (schema.RulePattern, RuleFormat, RuleEnum, RuleKeywords, RuleNote); a
// rule with none is stated in the property's description in message's
// words, never silently enforced. New panics when tag names a built-in
// rule, which fn would silently replace, or is otherwise not a usable rule
// name.
func WithRule(tag string, fn validator.Func, message string, opts ...schema.RuleOption) Option {
	return func(c *config) { c.rules = append(c.rules, rule{tag: tag, fn: fn, message: message, opts: opts}) }
}

// WithServerOptions passes the go-sdk's own server options to every server
// the app makes (NewServer, Serve, HTTPHandler): keep-alive, page size,
// initialized handlers, capabilities, everything vurb does not wrap. vurb
// sets over a copy of opts what it owns: instructions, logger, completion
// and subscription handlers, and which capabilities the app has.
func WithServerOptions(opts *mcp.ServerOptions) Option {
	return func(c *config) { c.serverOpts = opts }
}

// WithRequestStateKeys sets the keys that seal the state a multi-round
// request carries through the client between rounds (see Ask and Carry):
// AES-256-GCM under a key derived from each by HKDF, keys[0] seals and
// every key opens, so a key is rotated by
// putting the new one first and dropping the old one once no state sealed
// with it can still be in flight (ten minutes, see WithRequestStateMaxAge).
// Every replica behind a load balancer must have the same keys, since a
// client's next round may reach any of them. Without this option each app
// makes a random key of its own, which suits one process only. Keys should
// be 32 random bytes; New panics on a key shorter than 16.
func WithRequestStateKeys(keys ...[]byte) Option {
	for i, k := range keys {
		if len(k) < 16 {
			panic(fmt.Sprintf("vurb: WithRequestStateKeys: key %d has %d bytes; use 32 random bytes", i, len(k)))
		}
	}
	return func(c *config) { c.stateKeys = keys }
}

// WithRequestStateMaxAge bounds how long a round's state stays valid
// (default 10 minutes): a client that answers later starts the request
// again.
func WithRequestStateMaxAge(d time.Duration) Option { return func(c *config) { c.stateMaxAge = d } }

// WithInlineHandlers runs handlers on the calling goroutine instead of a
// worker's. By default vurb hands each call's chain to a pooled worker
// goroutine, so that a handler which ignores its context cannot hold the
// call past its deadline; the hand-off has a small cost per call
// (bench/README.md). The HTTP lanes need no hand-off for that: they run
// the chain on the request's goroutine and answer the deadline from a
// watch on the call's context, so this option changes the go-sdk's paths
// (stdio, in-memory, sessions the lanes hand over) and in-process calls.
// Inline,
// that cost is gone, but such a handler holds the call until it returns:
// the deadline still reaches the handler through ctx, and a handler that
// returns late gets the timeout message. Choose it when every handler
// honours ctx. Panics are contained either way; a handler that calls
// runtime.Goexit ends the caller's goroutine inline, where vurb cannot
// answer for it.
func WithInlineHandlers() Option { return func(c *config) { c.inline = true } }

// Exposition is how authored tools reach the wire. Authoring never depends
// on it: the same handlers serve either exposition from the same compiled
// plan. Each value names one implementation of the engine's exposition
// interface (flat.go and grouped.go in the compiled layer), which lowers a
// tool's compiled actions to wire tools.
type Exposition int

const (
	// Flat exposes one MCP tool per action, named tool_action (or
	// tool_group_action), each with only its own fields. It is the default:
	// small schemas are easier for a model to fill in correctly.
	Flat Exposition = iota
	// Grouped exposes one MCP tool per tool, with a discriminator field
	// (default "action") choosing the action and a merged schema whose field
	// descriptions say which actions need them. It keeps tools/list short
	// when a server has many actions.
	Grouped
)

// expositions are the implementations, by Exposition.
var expositions = [...]engine.Exposition{Flat: engine.Flat{}, Grouped: engine.Grouped{}}

// String returns "flat" or "grouped".
func (e Exposition) String() string {
	if e >= 0 && int(e) < len(expositions) {
		return expositions[e].String()
	}
	return fmt.Sprintf("Exposition(%d)", int(e))
}

// engine returns the implementation; WithExposition has checked e.
func (e Exposition) engine() engine.Exposition { return expositions[e] }

// WithDescriber sets the functions that write the tools' descriptions: the
// decorations of a flat tool ("Read-only: ", "Destructive: "), the action
// lines of a grouped tool, its TOON form. Each is a pure function of plain
// values, called once per tool at Build; a nil one keeps describe.Default's,
// so an app replaces only what it wants, or wraps the default:
//
//	vurb.WithDescriber(describe.Describer{
//		Flat: func(tool string, a describe.Action) string { return a.Description },
//	})
//
// The input schema, its field notes and the annotations are not
// descriptions: they stay as the exposition writes them.
func WithDescriber(d describe.Describer) Option {
	return func(c *config) { c.describer = d }
}

// WithRequestMiddleware wraps every request the app's servers receive, of
// any method (tools/call, tools/list, prompts/get, resources/read,
// initialize, ...), on every transport: stdio, HTTP sessions and
// sessionless requests, the fast lane included. It is the go-sdk's own
// middleware shape, so what is written for the SDK works here, and it is
// where one rule covers everything the server exposes: an authorization
// check for prompts and resources as for tools, a trace span per request.
//
// The first middleware runs first. The context a middleware passes on
// reaches the handlers (vurb.Logger, CallerFrom and the span of a tracer
// all read it). req.GetExtra() carries the verified token and the HTTP
// headers; req.GetParams().GetMeta() the request's _meta. Panics are
// contained as a handler's are. Tool-level concerns (an action's tags,
// scopes, annotations) are better placed in App.Use, whose Call knows the
// action; an in-process App.Call does not pass through this chain.
//
// A sessionless request answered by the fast lane has no session: there,
// req.GetSession() holds a nil *mcp.ServerSession, so check it before use
// (CallerFrom's SessionID is "" alike). The tasks extension's own methods
// (tasks/get, tasks/update, tasks/cancel) are not wrapped; a tools/call
// that starts a task is.
func WithRequestMiddleware(mw ...mcp.Middleware) Option {
	for i, m := range mw {
		if m == nil {
			panic(fmt.Sprintf("vurb: nil middleware at position %d of WithRequestMiddleware", i))
		}
	}
	return func(c *config) { c.requestMW = append(c.requestMW, mw...) }
}

// WithLogContext adds attributes to every call's logger (Logger), read
// from the context the call arrived with when the logger is first made: a
// trace and span id put there by a request middleware, so that logs join
// traces. Several WithLogContext options all contribute, in the order
// given.
func WithLogContext(attrs func(ctx context.Context) []slog.Attr) Option {
	return func(c *config) {
		prev := c.logContext
		switch {
		case attrs == nil:
		case prev == nil:
			c.logContext = attrs
		default:
			c.logContext = func(ctx context.Context) []slog.Attr { return append(prev(ctx), attrs(ctx)...) }
		}
	}
}

// WithNotifyBuffer sets how many broadcast notifications
// (notifications/resources/updated, notifications/*/list_changed) may wait
// for one slow subscriber (default 64); past it that
// subscriber misses them, with a warning in the log, and the others are
// not delayed.
func WithNotifyBuffer(n int) Option {
	return func(c *config) {
		if n > 0 {
			c.notifyBuffer = n
		}
	}
}

// WithListTTL sets how long clients may cache the app's lists (default
// 5 min); zero says they are stale at once.
func WithListTTL(d time.Duration) Option {
	return func(c *config) {
		c.listTTL = max(d, 0)
		c.listTTLSet = true
	}
}

// WithMaxConcurrent caps every action's handlers running at once at n,
// each action on its own (tools, groups and actions may set their own
// with MaxConcurrent). A call that finds n running waits up to wait for
// one to end, then is refused with Messages.AtCapacity. By default there
// is no such cap.
func WithMaxConcurrent(n int, wait time.Duration) Option {
	limit.CheckConcurrent("WithMaxConcurrent", n, wait)
	return func(c *config) { c.callLimits.Concurrent, c.callLimits.Wait = n, wait }
}

// WithMaxOutput caps the bytes of text in each result of every action
// (default 1 MiB, about 250,000 tokens, more than most models take in one
// turn); tools, groups and actions may set their own with MaxOutput. A
// longer result is cut there and ends with Messages.Truncated, which tells
// the model to narrow its request. n < 0 removes the cap.
func WithMaxOutput(n int) Option {
	return func(c *config) {
		if n != 0 {
			c.callLimits.MaxOutput = n
		}
	}
}

// WithMaxRunning bounds the handlers running at once across the app
// (default 10,000), counting those still running after their
// call timed out. A call past the bound gets a tool error saying the
// server is busy, before its handler runs; n < 0 removes the bound.
func WithMaxRunning(n int) Option {
	return func(c *config) {
		if n != 0 {
			c.maxRunning = n
		}
	}
}

// WithMessages sets the app's texts. Empty fields (and a nil Schema) keep
// the defaults, so an app can reword one message alone:
//
//	m := vurb.Messages{Timeout: "took longer than %s; try a smaller request"}
//	app := vurb.New(vurb.WithMessages(m))
func WithMessages(m Messages) Option {
	return func(c *config) {
		d := &c.messages
		for _, f := range []struct {
			dst *string
			v   string
		}{
			{&d.UnknownTool, m.UnknownTool},
			{&d.DiscriminatorMissing, m.DiscriminatorMissing},
			{&d.DiscriminatorNotString, m.DiscriminatorNotString},
			{&d.UnknownAction, m.UnknownAction},
			{&d.InvalidArguments, m.InvalidArguments},
			{&d.Timeout, m.Timeout},
			{&d.Internal, m.Internal},
			{&d.Busy, m.Busy},
			{&d.MissingScopes, m.MissingScopes},
			{&d.RateLimited, m.RateLimited},
			{&d.AtCapacity, m.AtCapacity},
			{&d.Truncated, m.Truncated},
		} {
			if f.v != "" {
				*f.dst = f.v
			}
		}
		if m.Schema != nil {
			d.Schema = m.Schema
		}
	}
}

// WithObserver adds an observer to the app: each one given receives every
// event, in the order given, and a panicking one is contained alone (the
// panic is logged; the observers after it still receive the event).
// Without one a call pays a single nil check: no clock reads and no event
// values.
func WithObserver(o observe.Observer) Option {
	return func(c *config) {
		if o != nil {
			c.observers = append(c.observers, o)
		}
	}
}

// WithPresenters makes the app apply presenters (made with presenter.New)
// to the results of every action it has or will have. A type has at most
// one presenter per app; several WithPresenters add up. It panics on a nil
// presenter and on a second presenter of a type, at New.
//
//	app := vurb.New(vurb.WithPresenters(presenter.New[Invoice]().
//		Rules("amount_cents is in cents: divide by 100 before showing it").
//		Redact("card_number").
//		Limit(50)))
//
// A presenter may still be configured after New, until the app is built;
// then it is frozen with the app.
func WithPresenters(presenters ...presenter.Any) Option {
	defs := make([]*presenterDef, len(presenters))
	for i, ap := range presenters {
		if ap == nil || reflect.ValueOf(ap).IsNil() || ipresenter.DefOf(ap) == nil {
			panic("vurb: WithPresenters: nil presenter; make one with presenter.New[T]()")
		}
		defs[i] = ipresenter.DefOf(ap)
	}
	return func(c *config) {
		for _, def := range defs {
			for _, have := range c.presenters {
				if have.Type() == def.Type() {
					panic(fmt.Sprintf("vurb: WithPresenters: the app already has a presenter of %s; a type has one presenter, "+
						"so put its rules, redactions and suggestions in that one", def.Type()))
				}
			}
			c.presenters = append(c.presenters, def)
		}
	}
}

// WithRateStore sets the store of the app's rate limits (default: a
// store.NewMemoryRates of the app's own).
func WithRateStore(s store.Rates) Option { return func(c *config) { c.rateStore = s } }

// WithRateLimit adds rate limits on the calls of the whole app: a
// PerCaller limit here is each caller's budget across every action.
func WithRateLimit(limits ...RateLimit) Option {
	return func(c *config) { addRates(&c.callLimits, limits) }
}

// WithReplicas makes the app one of several replicas that share s, under
// the app's name (WithName): replicas of one app share a name, and two
// apps of different names on one store never see each other's sessions,
// tasks or messages. Two different apps with the same name must keep
// apart by other means (redisstate.WithPrefix). See store.Replicas for
// what is shared; redisstate.New gives all of it in one Redis, and a
// store.Replicas value gives what it holds. The README's "Running
// several replicas" tells what is shared and what each replica keeps.
// Give every replica the same WithRequestStateKeys too: the app panics
// at Build without them, since they authenticate the replicas' bus.
func WithReplicas(s store.Shared) Option {
	return func(c *config) { c.shared = s }
}

// WithResultFormat sets how structured results are written for the model.
func WithResultFormat(f ResultFormat) Option { return func(c *config) { c.resultFormat = f } }

// WithDrainDelay keeps a draining app (Shutdown, or ListenAndServe's
// context ended) serving for d with readiness off, before it stops
// accepting: a balancer then sees /readyz answer 503 and takes the
// replica out, instead of meeting a closed port. Give it the check's
// interval times the failures it needs (HAProxy's inter and fall;
// Kubernetes' periodSeconds and failureThreshold). The delay counts
// within the drain's context (WithShutdownGrace). Default 0.
func WithDrainDelay(d time.Duration) Option {
	return func(c *config) { c.drainDelay = max(d, 0) }
}

// WithSkillVisibility gives each kind of caller the skills of its own,
// as WithVisibility does for tools: visible says whether callers of a
// class see a skill. The class is the one WithVisibility's class function
// names (without WithVisibility every caller is of class ""). A hidden
// skill is unknown to the caller: absent from skills/list and
// resources/list, skills/get answers that no skill is served at its URI,
// and reading one of its files or folders answers that nothing is there,
// exactly as for a URI the server never served. Hiding a skill hides the
// skills nested in it (visible is not asked about them): they lie in its
// folder. A nested skill's files are its own alone: its enclosing skill's
// entry and folders list them only to a caller who sees the nested skill
// and holds its scopes, and seeing the enclosing skill reads none of them.
//
// visible runs once per class and skill, the first time a caller of the
// class asks; the views of the first 1,024 classes are kept.
func WithSkillVisibility(visible func(class string, s SkillInfo) bool) Option {
	if visible == nil {
		panic("vurb: WithSkillVisibility needs a visible function")
	}
	return func(c *config) { c.skillVisible = visible }
}

// WithPolicies sets the app's state-sync policies, checked at Build: an
// empty or malformed pattern, an unknown directive, or a policy an earlier
// one shadows (first match wins, so it would never apply) panics there.
func WithPolicies(policies ...Policy) Option {
	return func(c *config) { c.policies = append(c.policies, policies...) }
}

// WithDefaultCacheControl sets the directive of actions that neither set
// their own nor match a policy. Without it they are not decorated.
func WithDefaultCacheControl(cc CacheControl) Option {
	return func(c *config) { c.defaultCache = cc }
}

// WithVisibility gives each kind of caller a tool list of its own. class
// names the caller's kind ("admin", a tenant's plan, "" for anyone), read
// from the request's token and headers; visible says whether callers of a
// class see an action. A hidden action is absent from the caller's
// tools/list and is an unknown tool (or, in a grouped tool, an unknown
// action) when called, exactly as if a tag filter had removed it.
//
// visible runs once per class and action, the first time a caller of the
// class is seen; after that a request costs class and a map lookup, and
// nothing is recompiled. Keep the number of classes small (roles, plans,
// not user ids), and read the class from what the server verified (a claim
// of c.Token) rather than from what a client may write freely: vurb keeps
// the views of the first 1,024 classes it sees and computes any others on
// every request.
//
// Scopes (RequireScopes) filter lists on their own, with or without
// WithVisibility: an action whose scopes the caller's token lacks is absent
// from its tools/list, and a call of it is refused naming the scopes.
func WithVisibility(class func(c *Caller) string, visible func(class string, a ActionInfo) bool) Option {
	if class == nil || visible == nil {
		panic("vurb: WithVisibility needs both a class function and a visible function")
	}
	return func(c *config) { c.class, c.visible = class, visible }
}

// WithTasks sets how the app serves its tasks (see ActionDef.Task); zero
// fields of c keep their defaults, as TaskConfig's documentation gives
// them. Given twice, the last one wins whole: its zero fields are
// defaults again, not the earlier option's values. Being an option, it
// holds from New on, before any action is declared, and no built app can
// be reconfigured.
//
// With WithReplicas, a nil Store is the store the replicas share, so
// every replica sees every task; a Store given here replaces it for the
// app's tasks, and must then be one every replica shares too.
func WithTasks(c TaskConfig) Option {
	return func(cfg *config) { cfg.tasks = c }
}

// ServeOption configures how the app is served: which of its actions a
// server exposes (WithIncludeTags, WithExcludeTags: access control,
// honoured by Attach, NewServer, Serve, HTTPHandler and ListenAndServe
// alike) and, for HTTPHandler and ListenAndServe only, the HTTP settings
// (WithStateless, WithAllowedHosts, WithHTTPOptions, ...). Passing an HTTP
// setting where there is no HTTP panics, naming it: it would otherwise be
// silently ignored.
type ServeOption struct{ edge edge.ServeOption }

// serveOptions are opts as the serving edge takes them.
func serveOptions(opts []ServeOption) []edge.ServeOption {
	out := make([]edge.ServeOption, len(opts))
	for i, o := range opts {
		out[i] = o.edge
	}
	return out
}

// StdioOption configures the transport Stdio returns.
type StdioOption struct{ edge stdio.Option }

// WithBearerAuth makes HTTPHandler and ListenAndServe an OAuth 2.1 resource
// server, as the MCP authorization spec asks of a remote server: every
// request must carry a bearer token that verifier accepts, issued for this
// server (RFC 8707's resource indicator, metadata.Resource).
//
// It is the go-sdk's own machinery, wired in: auth.RequireBearerToken
// checks each request (opts passes the go-sdk's options through: Scopes
// every request needs, ClockSkew, AllowMissingExpiration), and
// auth.ProtectedResourceMetadataHandler serves metadata, the RFC 9728
// document that tells a client which authorization servers issue tokens
// for this resource. What vurb adds:
//
//   - The document is served, without a token, at the RFC 9728 location
//     derived from metadata.Resource: /.well-known/oauth-protected-resource
//     followed by the resource's path (/.well-known/oauth-protected-resource/mcp
//     for https://mcp.example.com/mcp), and at the bare
//     /.well-known/oauth-protected-resource, where clients look last.
//     ListenAndServe routes both paths; behind your own mux, route them to
//     the same handler as /mcp (see ExampleWithBearerAuth).
//   - A refused request gets 401 (403 when it lacks one of opts.Scopes)
//     with a challenge that names the document, and RFC 6750's error code
//     when one applies:
//     WWW-Authenticate: Bearer error="invalid_token", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp".
//     A 403 says error="insufficient_scope" and scope="..." lists the
//     scopes needed. A request without a token gets no error code, as
//     RFC 6750 §3.1 asks.
//   - The audience is checked whatever the verifier: a token whose claims
//     (TokenInfo.Extra["aud"]) name audiences none of which is
//     metadata.Resource is refused, so a token issued for another server
//     cannot be replayed here. A verifier of opaque tokens that reports no
//     "aud" must check the audience itself (an introspection response
//     carries it).
//
// verifier may be any auth.TokenVerifier: the one the oidc sub-package
// builds for JWT access tokens from an OpenID Connect issuer, or your own
// for opaque tokens (introspection, a database). It must return an error
// wrapping auth.ErrInvalidToken for a token it refuses (the client gets
// 401), and set UserID: the go-sdk binds a session to the user who opened
// it and refuses (403 "session user mismatch") a request on it with
// another user's token; with the same user, each request's own token,
// scopes included, is the one the request sees.
//
// The check wraps every request the handler answers, the fast lane's
// included, so auth.TokenInfoFromContext(r.Context()) holds the verified
// token wherever the request goes.
//
// WithBearerAuth panics when verifier is nil or metadata.Resource is not an
// absolute URL without a fragment (RFC 8707 §2).
func WithBearerAuth(verifier auth.TokenVerifier, metadata *oauthex.ProtectedResourceMetadata, opts *auth.RequireBearerTokenOptions) ServeOption {
	return ServeOption{edge.BearerAuth(verifier, metadata, opts)}
}

// WithDPoP makes WithBearerAuth take DPoP-bound tokens (RFC 9449): a
// request sends "Authorization: DPoP <token>" and, in its DPoP header, a
// proof signed by the key the token is bound to, so that a stolen token
// is worthless without the key. Each proof is checked as RFC 9449 §4.3
// says, against the request's method and metadata.Resource (the URL the
// client signed, whatever Host a proxy passed on); the token's cnf.jkt
// must be the thumbprint of the proof's key (the oidc verifier keeps every
// claim, cnf included; your own verifier must put cnf in
// TokenInfo.Extra). The proof's jti is spent once in the app's store:
// in memory, or, with WithReplicas, in the store the replicas share (one
// SET NX per DPoP request, so a proof replayed on another replica is
// refused too). When that store cannot answer, the request gets 503 and
// may be sent again with a new proof. Apps without WithDPoP make no such
// round trip.
//
// p says whether DPoP is required or accepted beside Bearer, the
// algorithms taken, the iat window and whether the server issues nonces;
// see dpop.Policy. A DPoP-bound token is refused as a bearer token
// either way. The protected resource metadata advertises the policy
// (dpop_signing_alg_values_supported, dpop_bound_access_tokens_required),
// and refusals carry RFC 9449's challenges:
//
//	WWW-Authenticate: DPoP error="invalid_dpop_proof", algs="ES256 ...", resource_metadata="..."
//
// with invalid_token for a token not bound to the proof's key, and
// use_dpop_nonce with a fresh DPoP-Nonce header when nonces are on. The
// check sits where the bearer check does, in front of every request the
// handler answers. A Go client signs proofs with dpop.Signer and sends
// them with dpop.Transport.
//
// WithDPoP panics, saying what to change, when p is not usable: an
// algorithm vurb does not verify (a MAC or "none" among them), an empty
// Algs, a window negative or under a second, a negative NonceLifetime, or
// a NonceLifetime without Nonces. HTTPHandler panics when WithBearerAuth
// is missing.
func WithDPoP(p dpop.Policy) ServeOption {
	return ServeOption{edge.DPoP(p)}
}

// WithLocalToken states who the local caller of Serve is: every request
// served over its transport (Stdio, or any other but HTTP) carries info as
// its verified token, as a request over HTTP carries the one WithBearerAuth
// verified. Scopes (RequireScopes), visibility (WithVisibility), rate-limit
// keys and Caller.Token all read it, so a desktop client that runs the
// server as a child process lists and calls what that caller may.
//
// The identity is the operator's to state, never the client's: nothing the
// client sends changes it. A server without it serves an anonymous caller,
// who lists no scoped action and is refused its calls. Typically main reads
// who runs the server from its environment or a local configuration file:
//
//	err := app.Serve(ctx, vurb.Stdio(), vurb.WithLocalToken(&auth.TokenInfo{
//		UserID: os.Getenv("USER"), Scopes: []string{"projects:read"}}))
//
// It applies to Serve only, which owns the transport; it panics when info
// is nil, and HTTPHandler and ListenAndServe panic when given it (their
// callers are identified by WithBearerAuth), as NewServer and Attach do
// (pass your transport to Serve). An in-process App.Call states its caller
// with ContextWithCaller.
func WithLocalToken(info *auth.TokenInfo) ServeOption {
	return ServeOption{edge.LocalToken(info)}
}

// WithScopeChallenges asks for scopes when they are needed, as MCP's step-up
// authorization does, instead of hiding what a token cannot reach. It
// needs WithBearerAuth. With it:
//
//   - an action whose scopes (RequireScopes) the caller's token lacks stays
//     in its tools/list, so the model can choose it;
//   - a request that invokes it (tools/call, and prompts/get or
//     resources/read when the app itself requires scopes) is answered,
//     before any handler runs or any stream starts, with HTTP 403 and
//     WWW-Authenticate: Bearer error="insufficient_scope",
//     scope="<every scope the operation needs>", resource_metadata="...".
//     A client that supports step-up sends the user to the authorization
//     server for those scopes (joined to those it holds) and sends the
//     request again with the new token.
//
// A client without step-up support sees a failed request rather than a
// tool error it can read, which is why this is a choice: without
// WithScopeChallenges, a scoped action is absent from the lists of callers who
// lack its scopes, and a call of it is a tool error naming them. Visibility
// rules (WithVisibility) still hide what they hide: a hidden tool is
// unknown, never challenged for.
func WithScopeChallenges() ServeOption {
	return ServeOption{edge.ScopeChallenges()}
}

// WithReadHeaderTimeout bounds the reading of a request's headers by
// ListenAndServe (default 10 s; negative: none).
func WithReadHeaderTimeout(d time.Duration) ServeOption {
	return ServeOption{edge.ReadHeaderTimeout(d)}
}

// WithBodyReadTimeout bounds the reading of a request's body by
// ListenAndServe, from the end of its headers (default
// 30 s; negative: none). A client that trickles its
// body is cut then. Only the body: an event stream that follows it is not
// bounded.
func WithBodyReadTimeout(d time.Duration) ServeOption {
	return ServeOption{edge.BodyReadTimeout(d)}
}

// WithWriteTimeout bounds each write of an answer by ListenAndServe (default
// 30 s; negative: none). It is set afresh before every
// write and flush rather than once per request, so a long-lived event
// stream is not cut while its client reads it, and a client that stops
// reading is cut once its buffers are full and a write has waited this
// long.
func WithWriteTimeout(d time.Duration) ServeOption {
	return ServeOption{edge.WriteTimeout(d)}
}

// WithIdleTimeout closes a keep-alive connection of ListenAndServe that has
// carried no request for d (default 2 min; negative: none,
// which leaves idle connections open for good).
func WithIdleTimeout(d time.Duration) ServeOption {
	return ServeOption{edge.IdleTimeout(d)}
}

// WithMaxConnections bounds the connections ListenAndServe holds open
// (default 4,096; negative: no bound). Past it, the
// connection idle the longest (one that never sent a request, or a
// kept-alive one between requests) is closed to make room for the new
// one; only when every connection has a request in flight do new ones
// wait in the listen backlog until one closes. Keep it below the
// process's file-descriptor limit.
func WithMaxConnections(n int) ServeOption {
	return ServeOption{edge.MaxConnections(n)}
}

// WithSessionIdleTimeout closes a session that has received no request for d
// (default 30 min; negative: never, as the go-sdk
// does by default). A standing event stream does not count as activity:
// a client that keeps a quiet session pings it. It overrides
// WithHTTPOptions' SessionTimeout.
func WithSessionIdleTimeout(d time.Duration) ServeOption {
	return ServeOption{edge.SessionIdleTimeout(d)}
}

// WithMaxSessions bounds the sessions open at once (default
// 10,000; negative: no bound). Past it, the session that has
// been idle the longest (no request in flight, none for the longest time)
// is closed to make room for the new one; only when every session is busy
// is a request that would open one refused, with 503 Service Unavailable
// and a Retry-After. One caller holds at most its share (see
// WithMaxSessionsPerCaller).
func WithMaxSessions(n int) ServeOption {
	return ServeOption{edge.MaxSessions(n)}
}

// WithMaxSessionsPerCaller bounds the sessions one caller may hold open at
// once (default: a sixteenth of WithMaxSessions, at least 16): past it, that
// caller's next initialize gets 429 Too Many Requests, and nobody else's.
// A caller is the subject of its verified token, else the host it connects
// from (its /64 over IPv6), as PerCaller keys it: never a value the client
// writes (see WithTrustedProxies behind a reverse proxy). At
// WithMaxSessions, the session idle the longest makes room for a new one.
// With a shared session store (WithReplicas) the share holds over every
// replica: past it, the caller's session saved least recently ends on all
// of them.
func WithMaxSessionsPerCaller(n int) ServeOption {
	return ServeOption{edge.MaxSessionsPerCaller(n)}
}

// WithStateless makes HTTPHandler serve every request on its own, without
// sessions: any replica can answer any request. Server-to-client requests
// (sampling, elicitation) are then unavailable.
func WithStateless() ServeOption {
	return ServeOption{edge.Stateless()}
}

// WithJSONResponse makes HTTPHandler answer with application/json instead of an
// event stream when a request needs only its response.
func WithJSONResponse() ServeOption {
	return ServeOption{edge.JSONResponse()}
}

// WithMaxBodyBytes bounds an HTTP request's body (default: the app's argument
// limit plus 64 KiB). Larger bodies get 413.
func WithMaxBodyBytes(n int64) ServeOption {
	return ServeOption{edge.MaxBodyBytes(n)}
}

// WithAllowedOrigins lists the browser origins (scheme://host[:port]) allowed
// to call the HTTP handler. A request with an Origin header not listed gets
// 403. Without the option, cross-origin browser requests are refused and
// same-origin and non-browser ones are allowed.
func WithAllowedOrigins(origins ...string) ServeOption {
	return ServeOption{edge.AllowedOrigins(origins...)}
}

// WithServerCard serves the app's server card (SEP-2127, the extension
// io.modelcontextprotocol/server-card), so that a client or a registry
// learns what the server is and where to reach it before connecting: at
// o.Endpoint plus /server-card (https://mcp.example.com/mcp/server-card),
// as application/mcp-server-card+json, with an ETag that changes with the
// card, 304 to a request that names it, a Cache-Control of an hour,
// and CORS for any origin; public even when WithBearerAuth guards the
// endpoint, and behind the same Host check. With o.Catalog, the host's MCP
// Catalog lists the card too (/.well-known/mcp/catalog.json and
// /.well-known/ai-catalog.json).
//
// The card is generated, never written: its name is the app's (WithName,
// which must then be reverse-DNS with one slash, com.example/weather),
// its version the app's (WithVersion), its remote the endpoint with the
// protocol revisions the server negotiates (what server/discover and
// initialize answer); o adds the description, title, website, icons and
// repository. The handler panics when one cannot be derived, saying what
// to change. A server card is opt-in: most apps' names are not
// reverse-DNS.
func WithServerCard(o servercard.Options) ServeOption {
	return ServeOption{edge.ServerCard(o)}
}

// WithAllowedHosts lists the Host header values (host or host:port) the HTTP
// handler answers to; any other gets 403, which blocks DNS rebinding.
// Without it, a loopback listener answers loopback Hosts only (the go-sdk's
// rule, applied in front of every path); with it, the list replaces that
// rule, so a loopback listener behind a local proxy or a hosts-file name
// answers the names listed.
func WithAllowedHosts(hosts ...string) ServeOption {
	return ServeOption{edge.AllowedHosts(hosts...)}
}

// WithTrustedProxies lists the reverse proxies (addresses, or networks in
// CIDR form: "10.0.0.0/8") whose X-Forwarded-For or Forwarded header
// names the client. Behind a proxy every request comes from the proxy's
// address, so without it every anonymous caller shares one quota
// (WithMaxSessionsPerCaller, the task store's share, rate limits keyed
// by caller). From a listed proxy, the client is the nearest address of
// the header that is not a listed proxy, read from the right; a request
// from anywhere else keeps its own address, whatever its headers say.
// It panics on what is neither an address nor a network.
func WithTrustedProxies(proxies ...string) ServeOption {
	return ServeOption{edge.TrustedProxies(proxies...)}
}

// WithHTTPOptions passes the go-sdk's own streamable HTTP options through
// (event store, session timeout, cross-origin protection, ...): every
// feature of the transport stays reachable. vurb's settings apply over a
// copy of opts: WithStateless and WithJSONResponse turn the SDK's on, WithMaxBodyBytes
// (or its default) sets MaxRequestBodyBytes, and a nil Logger gets the
// app's.
func WithHTTPOptions(opts *mcp.StreamableHTTPOptions) ServeOption {
	return ServeOption{edge.HTTPOptions(opts)}
}

// WithFastLane(false) sends every request through the go-sdk's handlers.
// By default (true) HTTPHandler answers the sessionless requests that need
// no stream (tools/call and tools/list of revision 2026-07-28 and later,
// and of WithStateless servers) itself, from the compiled plan, the way
// the go-sdk would, byte for byte, at a fraction of the cost; turning it
// off is for comparing the two, or ruling the lane out.
func WithFastLane(enabled bool) ServeOption {
	return ServeOption{edge.FastLane(enabled)}
}

// WithShutdownGrace sets how long ListenAndServe waits for in-flight calls
// and running tasks when it stops (default 10 s); behind
// your own http.Server, the context given to Shutdown bounds it. A handler that ignores its
// context and outlives its deadline on HTTP has had its call answered with
// the timeout, but it still holds its request, so the grace waits for it
// as for any call in flight; when the grace ends it is cut, and its
// connection closed at most two seconds later.
func WithShutdownGrace(d time.Duration) ServeOption {
	return ServeOption{edge.ShutdownGrace(d)}
}

// WithSessionStore keeps the records of handshake-era sessions in s,
// where every replica of the server reads them, so that a session opened
// on one replica is served by any, with no affinity at the load balancer:
// a replica that does not hold a session reads its record from the store
// (once a second at most while it serves it) and answers its plain calls
// from it; a request that needs the go-sdk's session (an input request, a
// GET stream) connects one there from the record. The store holds a record
// for the session idle timeout (WithSessionIdleTimeout), renewed while the
// session is used, and forgets it when the client ends the session
// (DELETE). Give every replica the same WithRequestStateKeys too. A store
// that fails is logged, and each replica serves the sessions it holds.
// redisstate.New(...).Sessions() is one in Redis. WithReplicas gives the
// handlers a session store and, with it, the bus that carries what a
// session's requests change on one replica (a log level, a subscription,
// the answer to a question another replica asked) to the others: a store
// alone does not. This option overrides WithReplicas' store.
func WithSessionStore(s store.Sessions) ServeOption {
	if s == nil {
		panic("vurb: WithSessionStore needs a store; leave the option out to keep sessions in this process")
	}
	return ServeOption{edge.SessionStoreOption(s)}
}

// WithIncludeTags exposes only the actions that carry at least one of tags
// (their own, their group's or their tool's). A filter is access control:
// an action it hides is absent from tools/list and a call to it gets the
// same "unknown tool" error as a name that never existed.
func WithIncludeTags(tags ...string) ServeOption {
	return ServeOption{edge.IncludeTags(tags...)}
}

// WithExcludeTags hides every action that carries any of tags, whatever
// WithIncludeTags says.
func WithExcludeTags(tags ...string) ServeOption {
	return ServeOption{edge.ExcludeTags(tags...)}
}

// WithKeepAlive makes the server ping each client every d and close the
// session after a ping goes unanswered (the go-sdk's
// ServerOptions.KeepAlive; off by default). It applies to every
// transport. Over streamable HTTP a ping travels on the session's
// standing event stream: a client that holds none cannot answer it, and
// its session would be closed at the first ping, so turn it on only for
// clients that listen.
func WithKeepAlive(d time.Duration) ServeOption {
	return ServeOption{edge.KeepAlive(d)}
}

// WithMaxLineBytes bounds one stdio message, a line (default 4 MiB, four
// times the default argument limit, so that a call the app accepts always
// fits). A longer line is skipped without being held in
// memory and answered with an invalid-request error. Keep it above
// WithMaxArgumentBytes.
func WithMaxLineBytes(n int) StdioOption {
	return StdioOption{stdio.MaxLineBytes(n)}
}

// WithMaxInFlight bounds the stdio requests being answered at once (default
// 256). At the bound the server stops reading stdin until
// an answer is written: a client that writes without reading the answers
// is held back by its own pipe, and the server's memory stays flat.
func WithMaxInFlight(n int) StdioOption {
	return StdioOption{stdio.MaxInFlight(n)}
}

// WithIncludeGroups exposes only the actions in at least one of the
// categories named by their fully qualified names ("user-facing",
// "platform.users"), a category's descendants included. It is tag
// selection: a category gives each member it holds the tag "group:<fqn>"
// (and its ancestors'), so it combines with WithIncludeTags as tags do: an
// action passes when it carries any included tag or group. Prompts and
// resources, which tag filters do not hide, are not hidden either. It is
// no second way of doing what WithIncludeTags does: it names a category as
// it is declared, and the tag that encodes it stays vurb's.
func WithIncludeGroups(fqns ...string) ServeOption { return WithIncludeTags(groupTags(fqns)...) }

// WithExcludeGroups hides every action in any of the categories named,
// whatever WithIncludeGroups and WithIncludeTags say.
func WithExcludeGroups(fqns ...string) ServeOption { return WithExcludeTags(groupTags(fqns)...) }
