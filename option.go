package vurb

import (
	"context"
	"fmt"
	"log/slog"
	"reflect"
	"time"

	"github.com/go-playground/validator/v10"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/describe"
	"github.com/vurb-go/vurb/internal/engine"
	"github.com/vurb-go/vurb/internal/schema"
	"github.com/vurb-go/vurb/observe"
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
	skillVisible func(string, SkillInfo) bool // WithSkillVisibility
	presenters   []*presenterDef              // WithPresenters (presenter.go)

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
