package vurb

import (
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ServeOption configures how the app is served: which of its actions a
// server exposes (IncludeTags, ExcludeTags: access control, honoured by
// Attach, NewServer, Serve, HTTPHandler and ListenAndServe alike) and, for
// HTTPHandler and ListenAndServe only, the HTTP settings (Stateless,
// AllowedHosts, HTTPOptions, ...). Passing an HTTP setting where there is
// no HTTP panics, naming it: it would otherwise be silently ignored.
type ServeOption func(*serveConfig)

// serveConfig is what serve options set.
type serveConfig struct {
	// access control
	include, exclude map[string]bool

	// every transport
	keepAlive time.Duration

	// HTTP settings
	httpOnly          []string // the names of the HTTP settings given, for errors
	stateless         bool
	jsonResponse      bool
	maxBodyBytes      int64
	allowedOrigins    map[string]bool
	allowedHosts      map[string]bool
	shutdownGrace     time.Duration
	sdkHTTP           *mcp.StreamableHTTPOptions
	noLane            bool
	sessionIdle       time.Duration
	maxSessions       int
	sessionsPerCaller int
	timeouts          httpTimeouts
	maxConns          int
	bearer            *resourceServer // BearerAuth
	challenges        bool            // ScopeChallenges
}

func newServeConfig(opts []ServeOption) serveConfig {
	var c serveConfig
	for _, opt := range opts {
		opt(&c)
	}
	return c
}

// httpSetting marks c as holding the HTTP setting name.
func (c *serveConfig) httpSetting(name string) { c.httpOnly = append(c.httpOnly, name) }

// mustNotNeedHTTP panics when HTTP settings reached a server without HTTP.
func (c *serveConfig) mustNotNeedHTTP(where string) {
	if len(c.httpOnly) > 0 {
		panic(fmt.Sprintf("vurb: %s: %s only apply to HTTP; pass them to HTTPHandler or ListenAndServe",
			where, strings.Join(c.httpOnly, ", ")))
	}
}

// IncludeTags exposes only the actions that carry at least one of tags
// (their own, their group's or their tool's). A filter is access control:
// an action it hides is absent from tools/list and a call to it gets the
// same "unknown tool" error as a name that never existed.
func IncludeTags(tags ...string) ServeOption {
	return func(c *serveConfig) { c.include = addToSet(c.include, tags) }
}

// ExcludeTags hides every action that carries any of tags, whatever
// IncludeTags says.
func ExcludeTags(tags ...string) ServeOption {
	return func(c *serveConfig) { c.exclude = addToSet(c.exclude, tags) }
}

func addToSet(set map[string]bool, values []string) map[string]bool {
	if set == nil {
		set = make(map[string]bool, len(values))
	}
	for _, v := range values {
		set[v] = true
	}
	return set
}

// allows reports whether an action with tags passes the filter.
func (c *serveConfig) allows(tags []string) bool {
	included := len(c.include) == 0
	for _, t := range tags {
		if c.exclude[t] {
			return false
		}
		if c.include[t] {
			included = true
		}
	}
	return included
}

func (c *serveConfig) filters() bool { return len(c.include) > 0 || len(c.exclude) > 0 }

// KeepAlive makes the server ping each client every d and close the
// session after a ping goes unanswered (the go-sdk's
// ServerOptions.KeepAlive; off by default). It applies to every
// transport. Over streamable HTTP a ping travels on the session's
// standing event stream: a client that holds none cannot answer it, and
// its session would be closed at the first ping, so turn it on only for
// clients that listen.
func KeepAlive(d time.Duration) ServeOption {
	return func(c *serveConfig) { c.keepAlive = d }
}
