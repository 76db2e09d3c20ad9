package edge

import (
	"fmt"
	"net/netip"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/servercard"
	"github.com/vurb-go/vurb/store"
)

// ServeOption is vurb.ServeOption; see its documentation there.
type ServeOption func(*serveConfig)

// serveConfig is what serve options set.
type serveConfig struct {
	// access control
	include, exclude map[string]bool

	// every transport
	keepAlive time.Duration

	// Serve only
	localToken *auth.TokenInfo // WithLocalToken

	// HTTP settings
	httpOnly          []string // the names of the HTTP settings given, for errors
	stateless         bool
	jsonResponse      bool
	maxBodyBytes      int64
	allowedOrigins    map[string]bool
	allowedHosts      map[string]bool
	trustedProxies    []netip.Prefix // WithTrustedProxies
	shutdownGrace     time.Duration
	sdkHTTP           *mcp.StreamableHTTPOptions
	noLane            bool
	sessionIdle       time.Duration
	sessionStore      store.Sessions // WithSessionStore: records every replica reads
	maxSessions       int
	sessionsPerCaller int
	timeouts          httpTimeouts
	maxConns          int
	bearer            *resourceServer     // WithBearerAuth
	challenges        bool                // WithScopeChallenges
	card              *servercard.Options // WithServerCard
	dpop              *dpopConfig         // WithDPoP
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

// IncludeTags is vurb.WithIncludeTags; see its documentation there.
func IncludeTags(tags ...string) ServeOption {
	return func(c *serveConfig) { c.include = addToSet(c.include, tags) }
}

// ExcludeTags is vurb.WithExcludeTags; see its documentation there.
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

// KeepAlive is vurb.WithKeepAlive; see its documentation there.
func KeepAlive(d time.Duration) ServeOption {
	return func(c *serveConfig) { c.keepAlive = d }
}
