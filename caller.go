package vurb

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/edge"
	"github.com/vurb-go/vurb/internal/engine"
)

// Caller is who sent the request in flight, and how: what a handler or a
// middleware needs to decide who may do what. vurb reads it from each
// request, never from the session's first one, so a client that refreshes
// its token mid-session is seen with the new one (RemoteAddr aside: the
// go-sdk gives a session's handlers only the address that opened it).
//
// A Caller is shared by everything that reads it during the request: do
// not modify it.
type Caller struct {
	// Token is the request's verified token (subject, scopes, expiry,
	// claims): over HTTP the bearer token WithBearerAuth verified, over
	// Serve's transport (stdio) the one WithLocalToken states, in-process
	// the one ContextWithCaller gives. It is nil for an anonymous caller:
	// a request without a token, or served without either option.
	Token *auth.TokenInfo
	// Header holds the request's HTTP headers, nil off HTTP.
	Header http.Header
	// Meta is the request's _meta, nil when it sent none.
	Meta mcp.Meta
	// Client is the client's name and version, nil when unknown.
	Client *mcp.Implementation
	// Capabilities are the client's declared capabilities, nil when
	// unknown.
	Capabilities *mcp.ClientCapabilities
	// Protocol is the request's protocol revision ("2025-11-25",
	// "2026-07-28"), "" when unknown (in-process).
	Protocol string
	// SessionID is the MCP session's id, "" for a sessionless request, on
	// stdio and in-process.
	SessionID string
	// RemoteAddr is the network address ("host:port") of the HTTP client,
	// as net/http's Request.RemoteAddr gives it: of the request itself when
	// it is sessionless, of the request that opened the session otherwise;
	// "" off HTTP. Behind a reverse proxy it is the proxy's: read the
	// client's from Header (X-Forwarded-For) when the proxy is yours.
	RemoteAddr string
}

// Subject is the token's subject (its UserID), "" for an anonymous caller.
func (c *Caller) Subject() string {
	if c == nil || c.Token == nil {
		return ""
	}
	return c.Token.UserID
}

// Scopes are the scopes the token grants, nil for an anonymous caller.
func (c *Caller) Scopes() []string {
	if c == nil || c.Token == nil {
		return nil
	}
	return c.Token.Scopes
}

type callerKey struct{}

// ContextWithCaller returns ctx carrying c: an in-process App.Call made
// with it runs as c, which its handlers read and its actions' scopes check.
// Like a tag filter, a visibility rule (WithVisibility) shapes what served
// callers see; an in-process call, made by your own code, reaches every
// action. Served requests get their Caller from the transport: over HTTP
// from WithBearerAuth, over Serve's (stdio) from WithLocalToken.
func ContextWithCaller(ctx context.Context, c *Caller) context.Context {
	return context.WithValue(ctx, callerKey{}, c)
}

// CallerFrom returns the caller of the request ctx belongs to: a tool call,
// a prompt, a resource. Outside a request, or in-process without
// ContextWithCaller, it is an empty Caller (anonymous), never nil.
func CallerFrom(ctx context.Context) *Caller {
	if c := engine.CallFrom(ctx); c != nil {
		return callerOf(c.Origin())
	}
	if c, ok := ctx.Value(callerKey{}).(*Caller); ok && c != nil {
		return c
	}
	return &Caller{}
}

// Caller returns who made the call (see CallerFrom).
func (c *Call) Caller() *Caller { return callerOf((*engine.Call)(c).Origin()) }

// callerOf is the Caller an origin describes. The fast lane leaves _meta
// undecoded: it is decoded here, when someone asks.
func callerOf(o *engine.Origin) *Caller {
	o.Resolve()
	c := &Caller{Token: o.Token, Header: o.Header, Meta: o.Meta, Client: o.Client,
		Capabilities: o.Capabilities, Protocol: o.Version, RemoteAddr: o.Remote}
	if o.Session != nil {
		c.SessionID = o.Session.ID()
	} else {
		c.SessionID = o.SessionID
	}
	if c.Meta == nil && len(o.RawMeta) > 0 && json.Unmarshal(o.RawMeta, &c.Meta) == nil && c.Client == nil {
		if raw, err := json.Marshal(c.Meta[mcp.MetaKeyClientInfo]); err == nil && string(raw) != "null" {
			var info mcp.Implementation
			if json.Unmarshal(raw, &info) == nil {
				c.Client = &info
			}
		}
	}
	return c
}

// originOfContext is the origin of an in-process call: the Caller the
// context carries, if any.
func originOfContext(ctx context.Context) engine.Origin {
	c, _ := ctx.Value(callerKey{}).(*Caller)
	return c.origin()
}

// origin is the origin c describes (none when c is nil).
func (c *Caller) origin() engine.Origin {
	if c == nil {
		return engine.Origin{}
	}
	return engine.Origin{Token: c.Token, Header: c.Header, Meta: c.Meta, Client: c.Client,
		Capabilities: c.Capabilities, Version: c.Protocol, Remote: c.RemoteAddr}
}

// originOf is edge.OriginOf, for the root's go-sdk handlers.
func originOf[P mcp.Params](ctx context.Context, req *mcp.ServerRequest[P], meta mcp.Meta) engine.Origin {
	return edge.OriginOf(ctx, req, meta)
}

// RequireScopes makes every call, prompt and resource of the app need the
// OAuth scopes in the caller's verified token (see Caller.Token): a call
// without them is refused with a message naming the scopes missing, and its
// action is absent from that caller's tools/list. Served with
// WithScopeChallenges, the action stays listed and the call is answered with
// an HTTP challenge for the scopes instead (step-up authorization). Scopes
// declared at the app, tool, group and action levels add up.
//
// A request with no token (stdio without WithLocalToken, an in-process
// App.Call without ContextWithCaller, an HTTP server without
// WithBearerAuth) grants no scope: scoped actions refuse it.
func (a *App) RequireScopes(scopes ...string) *App {
	a.mustBeMutable()
	a.scopes = addScopes(a.scopes, "App", scopes)
	return a
}

// RequireScopes makes every action of the tool need the OAuth scopes (see
// App.RequireScopes).
func (t *Tool) RequireScopes(scopes ...string) *Tool {
	t.mustBeMutable()
	t.scopes = addScopes(t.scopes, "Tool "+t.name, scopes)
	return t
}

// RequireScopes makes every action of the group need the OAuth scopes (see
// App.RequireScopes).
func (g *Group) RequireScopes(scopes ...string) *Group {
	g.tool.mustBeMutable()
	g.scopes = addScopes(g.scopes, "Group "+g.name, scopes)
	return g
}

// RequireScopes makes the action need the OAuth scopes (see
// App.RequireScopes).
func (a *ActionDef) RequireScopes(scopes ...string) *ActionDef {
	a.mustBeMutable()
	a.scopes = addScopes(a.scopes, "action "+a.canonicalKey(), scopes)
	return a
}

// addScopes appends scopes to have, checking each is a scope token of
// RFC 6749 §3.3 (printable ASCII, no space, quote or backslash), as a
// WWW-Authenticate challenge can carry it.
func addScopes(have []string, owner string, scopes []string) []string {
	for _, s := range scopes {
		if s == "" || strings.ContainsFunc(s, func(r rune) bool { return r <= ' ' || r > '~' || r == '"' || r == '\\' }) {
			panic(fmt.Sprintf("vurb: %s RequireScopes: %q is not an OAuth scope (printable ASCII, no spaces, quotes or backslashes)", owner, s))
		}
		if !slices.Contains(have, s) {
			have = append(have, s)
		}
	}
	return have
}

// requiredScopes are the scopes some request of the built app needs,
// sorted: the app's own and every action's.
func (a *App) requiredScopes() []string {
	all := slices.Clone(a.scopes)
	for _, r := range a.built().Routes() {
		for _, ep := range r.Endpoints() {
			for _, s := range ep.Scopes() {
				if !slices.Contains(all, s) {
					all = append(all, s)
				}
			}
		}
	}
	slices.Sort(all)
	return all
}

// requiredScopes are the scopes of the action and of every level around
// it, each once, outermost first.
func (d *ActionDef) requiredScopes() []string {
	var all []string
	levels := [][]string{d.tool.app.scopes, d.tool.scopes, nil, d.scopes}
	if d.group != nil {
		levels[2] = d.group.scopes
	}
	for _, l := range levels {
		for _, s := range l {
			if !slices.Contains(all, s) {
				all = append(all, s)
			}
		}
	}
	return all
}
