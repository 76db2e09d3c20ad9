package engine

import (
	"context"
	"encoding/json"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Handler is one step of a call's pipeline once its arguments are decoded
// and validated: the shape every middleware chain is composed into.
type Handler func(ctx context.Context, call *Call) (*mcp.CallToolResult, error)

// Origin is what the transport knows about a call; zero in-process.
type Origin struct {
	Session       *mcp.ServerSession
	ProgressToken any
	// Version is the request's protocol revision, "" when unknown.
	Version string
	// Capabilities are the client's, nil when unknown.
	Capabilities *mcp.ClientCapabilities
	// Answers and RequestState are what a client retrying a multi-round-trip
	// request sends back.
	Answers      mcp.InputResponseMap
	RequestState string
	// Token is the request's verified bearer token, nil when it carried
	// none (or off HTTP).
	Token *auth.TokenInfo
	// Header holds this request's HTTP headers, nil off HTTP.
	Header http.Header
	// Meta is the request's _meta, nil when it sent none or when only
	// RawMeta holds it.
	Meta mcp.Meta
	// RawMeta is the request's _meta as received, where it was not
	// decoded (the fast lane decodes it only when asked for).
	RawMeta json.RawMessage
	// Client is the client's name and version, nil when unknown.
	Client *mcp.Implementation
	// Remote is the network address of the HTTP client (net/http's
	// Request.RemoteAddr) of a sessionless request, or of the request that
	// opened the session; "" off HTTP.
	Remote string
	// HideUnscoped says that the caller's lists leave out the actions its
	// token lacks scopes for: an error that names a grouped tool's actions
	// names only the others.
	HideUnscoped bool
	// Sight says which actions the caller is shown, for results that name
	// actions to call next (a presenter's suggestions); nil when the
	// caller is shown every action of the plan.
	Sight Sight
	// Admit, when not nil, runs once the call is authorised, valid and
	// within its limits, just before its handler: an error refuses the
	// call with it. An MCP task's record is made there, so that a call that
	// would be refused never leaves one.
	Admit func() error
	// SessionID names the handshake-era session of a call answered away
	// from its go-sdk session (Detached); Session's ID otherwise.
	SessionID string
	// Detached says that the call of a handshake-era session is answered
	// by vurb's session lane, away from the go-sdk's session: anything that
	// needs the session itself (Session, a log message at a level the
	// client asked for, an input request sent over the session) hands the
	// call over (ErrHandover), before anything is written, to the go-sdk,
	// which runs it again on its session.
	Detached bool
	// Sessionless says that the request has no session of its own: a
	// go-sdk Session, if any, was made for it alone (the go-sdk's
	// stateless handler), and its id, if any, is the client's to choose.
	Sessionless bool
	// LogLevel is the level a detached call's client set for log messages
	// ("" when it set none: the go-sdk sends none).
	LogLevel mcp.LoggingLevel
	// Answerer, when not nil, runs the call's chain on the caller's
	// goroutine instead of a worker's: the caller holds what it answers
	// through (an HTTP response) and can answer while its goroutine is held.
	// If the deadline or the shutdown's cut comes before its chain
	// returns, AnswerLate is called once, from another goroutine, with what the
	// call answers then (nil and the context's error when the caller has
	// gone meanwhile); the call then returns ErrAnswered, once its chain
	// has returned and AnswerLate with it.
	// It is also called, on the caller's goroutine, for a chain that
	// runtime.Goexit ends. An app with an observer keeps the hand-off.
	Answerer Answerer
	// Lazy, when not nil, fills Capabilities and Client the first time
	// either is needed (Resolve): a go-sdk request's _meta yields them by
	// re-encoding, which costs more than most calls need.
	Lazy func(*Origin)
}

// Host is the caller's network host, as quotas key an anonymous caller:
// the host of Remote, or for an IPv6 address its /64 (RFC 6177: a host may
// send each request from another address of it); "" off HTTP.
func (o *Origin) Host() string {
	if o.Remote == "" {
		return ""
	}
	host, _, err := net.SplitHostPort(o.Remote)
	if err != nil {
		host = o.Remote
	}
	if ip, err := netip.ParseAddr(host); err == nil && ip.Is6() && !ip.Is4In6() {
		return netip.PrefixFrom(ip.WithZone(""), 64).Masked().String()
	}
	return host
}

// CallerKey names the caller as every quota does (limit.CallerBucket,
// the session and task quotas, the workflow store's shares): the token's
// subject, else the HTTP client's host (its /64 over IPv6), else the
// session, else the one caller of anonymous ones (stdio, in process). The
// host comes before the session: over HTTP an anonymous client may open a
// session per call.
func (o *Origin) CallerKey() string {
	if o.Token != nil && o.Token.UserID != "" {
		return "user:" + o.Token.UserID
	}
	if host := o.Host(); host != "" {
		return "host:" + host
	}
	if o.Session != nil {
		if id := o.Session.ID(); id != "" {
			return "session:" + id
		}
	}
	return "anonymous"
}

// Resolve fills what Lazy defers, once, and returns o.
func (o *Origin) Resolve() *Origin {
	if f := o.Lazy; f != nil {
		o.Lazy = nil
		f(o)
	}
	return o
}

// Call is what middleware and handlers know about the call in flight. The
// root package exposes it as vurb.Call (a type with this one's fields and
// its own methods); everything vurb itself reads about the call comes from
// the compiled endpoint, never back from these fields.
type Call struct {
	Tool      string
	Action    string
	Key       string
	Name      string
	Input     any
	Arguments json.RawMessage

	id     uint64
	origin *Origin // the caller's, shared (never copied: it is a tenth of a served call's bytes)
	ep     *Endpoint
	round  *Round
	step   *Step // the workflow move it makes (gate.go), or nil
	// logger is made on first use. Handlers may log from several
	// goroutines at once, so it is published with a compare-and-swap. It
	// lives in the call's context, so that a Call can be copied (a
	// middleware may keep one) and its copies share it.
	logger *atomic.Pointer[slog.Logger]
	// parent is the context the call arrived with: what Runtime.LogAttrs
	// reads (a request's trace span).
	parent context.Context
}

// RequestID identifies the call in logs, events and panic references.
func (c *Call) RequestID() string { return FormatID(c.id) }

// FormatID is the text of a request id: base 36, short in logs.
func FormatID(id uint64) string { return strconv.FormatUint(id, 36) }

// Session returns the MCP session the call arrived on, or nil.
//
// In a detached call (Origin.Detached) it hands the call over to the
// go-sdk's session: the handler stops here, and runs again there.
func (c *Call) Session() *mcp.ServerSession {
	if c.Origin().Detached {
		panic(handover{})
	}
	return c.Origin().Session
}

// Origin returns what the transport knows about the call.
func (c *Call) Origin() *Origin {
	if c.origin == nil { // a Call made outside a call, as a test of a middleware may
		return &Origin{}
	}
	return c.origin
}

// ProgressToken returns the token the client sent to ask for progress, or
// nil.
func (c *Call) ProgressToken() any { return c.Origin().ProgressToken }

// Logger returns the plan's logger with the call's request id, tool and
// action bound. It is made once per call, on first use, and is safe to ask
// for from several goroutines.
func (c *Call) Logger() *slog.Logger {
	if l := c.logger.Load(); l != nil {
		return l
	}
	ep := c.ep
	l := ep.rt.Logger.With("request_id", c.RequestID(), "tool", ep.tool, "action", ep.action)
	if ep.rt.LogAttrs != nil && c.parent != nil {
		for _, a := range ep.rt.LogAttrs(c.parent) {
			l = l.With(a)
		}
	}
	if c.logger.CompareAndSwap(nil, l) {
		return l
	}
	return c.logger.Load()
}

type callKey struct{}

// CallFrom returns the call in flight, or nil when ctx does not belong to a
// call.
func CallFrom(ctx context.Context) *Call {
	c, _ := ctx.Value(callKey{}).(*Call)
	return c
}

// Tags are the action's tags (see Endpoint.Tags). Shared: do not modify.
func (c *Call) Tags() []string { return c.ep.Tags() }

// Annotations are the action's own annotations. Shared: do not modify.
func (c *Call) Annotations() *mcp.ToolAnnotations { return c.ep.Annotations() }

// Refer says how a model calls the action key ("tickets.list") under the
// app's exposition: its wire name in flat exposition ("tickets_list"), its
// tool and discriminator in grouped (`tickets with {"action":"list"}`);
// false when the app has no such action.
func (c *Call) Refer(key string) (string, bool) {
	ref, ok := c.ep.rt.refs[key]
	return ref, ok
}

// Scopes are the scopes the action requires. Shared: do not modify.
func (c *Call) Scopes() []string { return c.ep.Scopes() }
