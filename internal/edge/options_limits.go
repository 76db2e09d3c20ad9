package edge

import (
	"time"

	"github.com/vurb-go/vurb/internal/edge/sessions"
	"github.com/vurb-go/vurb/store"
)

// The bounds of vurb's HTTP serving. Before them, one client could hold
// the server: 1,000 idle keep-alive connections stayed open for good (with
// 1,024 file descriptors, 1,012 of them locked every new client out), a
// body trickled over 60 s was held the whole time, a client that never
// read a 20 MB answer pinned it, and 50,000 abandoned sessions cost 786 MB.
const (
	// DefaultReadHeaderTimeout bounds the reading of a request's headers.
	DefaultReadHeaderTimeout = 10 * time.Second
	// DefaultBodyReadTimeout bounds the reading of a request's body, from
	// the end of its headers.
	DefaultBodyReadTimeout = 30 * time.Second
	// DefaultWriteTimeout bounds each write of an answer: a client that
	// stops reading is cut this long after its buffers fill, while an
	// event stream that writes now and then stays open as long as it is
	// read.
	DefaultWriteTimeout = 30 * time.Second
	// DefaultIdleTimeout closes a keep-alive connection that has carried
	// no request for this long.
	DefaultIdleTimeout = 2 * time.Minute
	// DefaultMaxConnections bounds the connections ListenAndServe holds
	// open; past it, idle ones make room for new ones (see WithMaxConnections).
	DefaultMaxConnections = 4096
	// DefaultSessionIdleTimeout closes a session that has received no
	// request for this long. A client that keeps a session without calls
	// pings it (the go-sdk client's WithKeepAlive option) to keep it.
	DefaultSessionIdleTimeout = sessions.DefaultIdleTimeout
	// DefaultMaxSessions bounds the sessions open at once.
	DefaultMaxSessions = 10_000
)

// httpTimeouts are ListenAndServe's connection deadlines; zero fields
// take the defaults, negative ones have none.
type httpTimeouts struct {
	header, body, write, idle time.Duration
}

// resolved returns t with the defaults in place of zeros and zero in
// place of negatives (net/http's "none").
func (t httpTimeouts) resolved() httpTimeouts {
	pick := func(d, def time.Duration) time.Duration {
		switch {
		case d == 0:
			return def
		case d < 0:
			return 0
		}
		return d
	}
	return httpTimeouts{
		header: pick(t.header, DefaultReadHeaderTimeout),
		body:   pick(t.body, DefaultBodyReadTimeout),
		write:  pick(t.write, DefaultWriteTimeout),
		idle:   pick(t.idle, DefaultIdleTimeout),
	}
}

// ReadHeaderTimeout is vurb.WithReadHeaderTimeout; see its documentation there.
func ReadHeaderTimeout(d time.Duration) ServeOption {
	return func(c *serveConfig) { c.httpSetting("WithReadHeaderTimeout"); c.timeouts.header = d }
}

// BodyReadTimeout is vurb.WithBodyReadTimeout; see its documentation there.
func BodyReadTimeout(d time.Duration) ServeOption {
	return func(c *serveConfig) { c.httpSetting("WithBodyReadTimeout"); c.timeouts.body = d }
}

// WriteTimeout is vurb.WithWriteTimeout; see its documentation there.
func WriteTimeout(d time.Duration) ServeOption {
	return func(c *serveConfig) { c.httpSetting("WithWriteTimeout"); c.timeouts.write = d }
}

// IdleTimeout is vurb.WithIdleTimeout; see its documentation there.
func IdleTimeout(d time.Duration) ServeOption {
	return func(c *serveConfig) { c.httpSetting("WithIdleTimeout"); c.timeouts.idle = d }
}

// MaxConnections is vurb.WithMaxConnections; see its documentation there.
func MaxConnections(n int) ServeOption {
	return func(c *serveConfig) { c.httpSetting("WithMaxConnections"); c.maxConns = n }
}

// SessionIdleTimeout is vurb.WithSessionIdleTimeout; see its documentation there.
func SessionIdleTimeout(d time.Duration) ServeOption {
	return func(c *serveConfig) { c.httpSetting("WithSessionIdleTimeout"); c.sessionIdle = d }
}

// SessionStoreOption is vurb.WithSessionStore; see its documentation there.
func SessionStoreOption(s store.Sessions) ServeOption {
	return func(c *serveConfig) { c.httpSetting("WithSessionStore"); c.sessionStore = s }
}

// MaxSessions is vurb.WithMaxSessions; see its documentation there.
func MaxSessions(n int) ServeOption {
	return func(c *serveConfig) { c.httpSetting("WithMaxSessions"); c.maxSessions = n }
}

// MaxSessionsPerCaller is vurb.WithMaxSessionsPerCaller; see its documentation there.
func MaxSessionsPerCaller(n int) ServeOption {
	return func(c *serveConfig) { c.httpSetting("WithMaxSessionsPerCaller"); c.sessionsPerCaller = n }
}

// sessionShare is the bound on one caller's sessions.
func (c *serveConfig) sessionShare() int {
	if c.sessionsPerCaller > 0 {
		return c.sessionsPerCaller
	}
	return sessions.DefaultPerCaller(c.sessionCap())
}

// sessionTimeout is the go-sdk's SessionTimeout from the options.
func (c *serveConfig) sessionTimeout(sdk time.Duration) time.Duration {
	switch {
	case c.sessionIdle > 0:
		return c.sessionIdle
	case c.sessionIdle < 0:
		return 0
	case sdk != 0:
		return sdk
	}
	return DefaultSessionIdleTimeout
}

// sessionCap is the bound on open sessions, 0 for none.
func (c *serveConfig) sessionCap() int {
	switch {
	case c.maxSessions > 0:
		return c.maxSessions
	case c.maxSessions < 0:
		return 0
	}
	return DefaultMaxSessions
}

// connCap is the bound on open connections, 0 for none.
func (c *serveConfig) connCap() int {
	switch {
	case c.maxConns > 0:
		return c.maxConns
	case c.maxConns < 0:
		return 0
	}
	return DefaultMaxConnections
}
