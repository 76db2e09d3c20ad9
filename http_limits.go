package vurb

import (
	"time"
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
	// open; past it, idle ones make room for new ones (see MaxConnections).
	DefaultMaxConnections = 4096
	// DefaultSessionIdleTimeout closes a session that has received no
	// request for this long. A client that keeps a session without calls
	// pings it (the go-sdk client's KeepAlive option) to keep it.
	DefaultSessionIdleTimeout = 30 * time.Minute
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

// ReadHeaderTimeout bounds the reading of a request's headers by
// ListenAndServe (default DefaultReadHeaderTimeout; negative: none).
func ReadHeaderTimeout(d time.Duration) ServeOption {
	return func(c *serveConfig) { c.httpSetting("ReadHeaderTimeout"); c.timeouts.header = d }
}

// BodyReadTimeout bounds the reading of a request's body by
// ListenAndServe, from the end of its headers (default
// DefaultBodyReadTimeout; negative: none). A client that trickles its
// body is cut then. Only the body: an event stream that follows it is not
// bounded.
func BodyReadTimeout(d time.Duration) ServeOption {
	return func(c *serveConfig) { c.httpSetting("BodyReadTimeout"); c.timeouts.body = d }
}

// WriteTimeout bounds each write of an answer by ListenAndServe (default
// DefaultWriteTimeout; negative: none). It is set afresh before every
// write and flush rather than once per request, so a long-lived event
// stream is not cut while its client reads it, and a client that stops
// reading is cut once its buffers are full and a write has waited this
// long.
func WriteTimeout(d time.Duration) ServeOption {
	return func(c *serveConfig) { c.httpSetting("WriteTimeout"); c.timeouts.write = d }
}

// IdleTimeout closes a keep-alive connection of ListenAndServe that has
// carried no request for d (default DefaultIdleTimeout; negative: none,
// which leaves idle connections open for good).
func IdleTimeout(d time.Duration) ServeOption {
	return func(c *serveConfig) { c.httpSetting("IdleTimeout"); c.timeouts.idle = d }
}

// MaxConnections bounds the connections ListenAndServe holds open
// (default DefaultMaxConnections; negative: no bound). Past it, the
// connection idle the longest (one that never sent a request, or a
// kept-alive one between requests) is closed to make room for the new
// one; only when every connection has a request in flight do new ones
// wait in the listen backlog until one closes. Keep it below the
// process's file-descriptor limit.
func MaxConnections(n int) ServeOption {
	return func(c *serveConfig) { c.httpSetting("MaxConnections"); c.maxConns = n }
}

// SessionIdleTimeout closes a session that has received no request for d
// (default DefaultSessionIdleTimeout; negative: never, as the go-sdk
// does by default). A standing event stream does not count as activity:
// a client that keeps a quiet session pings it. It overrides
// HTTPOptions' SessionTimeout.
func SessionIdleTimeout(d time.Duration) ServeOption {
	return func(c *serveConfig) { c.httpSetting("SessionIdleTimeout"); c.sessionIdle = d }
}

// MaxSessions bounds the sessions open at once (default
// DefaultMaxSessions; negative: no bound). Past it, the session that has
// been idle the longest (no request in flight, none for the longest time)
// is closed to make room for the new one; only when every session is busy
// is a request that would open one refused, with 503 Service Unavailable
// and a Retry-After. One caller holds at most its share (see
// MaxSessionsPerCaller).
func MaxSessions(n int) ServeOption {
	return func(c *serveConfig) { c.httpSetting("MaxSessions"); c.maxSessions = n }
}

// MaxSessionsPerCaller bounds the sessions one caller may hold open at
// once (default: a sixteenth of MaxSessions, at least 16): past it, that
// caller's next initialize gets 429 Too Many Requests, and nobody else's.
// A caller is the subject of its verified token, else the host it connects
// from (its /64 over IPv6), as PerCaller keys it: never a value the client
// writes. At MaxSessions, the session idle the longest makes room for a
// new one.
func MaxSessionsPerCaller(n int) ServeOption {
	return func(c *serveConfig) { c.httpSetting("MaxSessionsPerCaller"); c.sessionsPerCaller = n }
}

// sessionShare is the bound on one caller's sessions.
func (c *serveConfig) sessionShare() int {
	if c.sessionsPerCaller > 0 {
		return c.sessionsPerCaller
	}
	return perCallerSessions(c.sessionCap())
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
