package vurb

import (
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Stateless makes HTTPHandler serve every request on its own, without
// sessions: any replica can answer any request. Server-to-client requests
// (sampling, elicitation) are then unavailable.
func Stateless() ServeOption {
	return func(c *serveConfig) { c.httpSetting("Stateless"); c.stateless = true }
}

// JSONResponse makes HTTPHandler answer with application/json instead of an
// event stream when a request needs only its response.
func JSONResponse() ServeOption {
	return func(c *serveConfig) { c.httpSetting("JSONResponse"); c.jsonResponse = true }
}

// MaxBodyBytes bounds an HTTP request's body (default: the app's argument
// limit plus 64 KiB). Larger bodies get 413.
func MaxBodyBytes(n int64) ServeOption {
	return func(c *serveConfig) { c.httpSetting("MaxBodyBytes"); c.maxBodyBytes = n }
}

// AllowedOrigins lists the browser origins (scheme://host[:port]) allowed
// to call the HTTP handler. A request with an Origin header not listed gets
// 403. Without the option, cross-origin browser requests are refused and
// same-origin and non-browser ones are allowed.
func AllowedOrigins(origins ...string) ServeOption {
	return func(c *serveConfig) {
		c.httpSetting("AllowedOrigins")
		c.allowedOrigins = addToSet(c.allowedOrigins, origins)
	}
}

// AllowedHosts lists the Host header values (host or host:port) the HTTP
// handler answers to; any other gets 403, which blocks DNS rebinding.
// Without it, a loopback listener answers loopback Hosts only (the go-sdk's
// rule, applied in front of every path); with it, the list replaces that
// rule, so a loopback listener behind a local proxy or a hosts-file name
// answers the names listed.
func AllowedHosts(hosts ...string) ServeOption {
	return func(c *serveConfig) {
		c.httpSetting("AllowedHosts")
		c.allowedHosts = addToSet(c.allowedHosts, hosts)
	}
}

// HTTPOptions passes the go-sdk's own streamable HTTP options through
// (event store, session timeout, cross-origin protection, ...): every
// feature of the transport stays reachable. vurb's settings apply over a
// copy of opts: Stateless and JSONResponse turn the SDK's on, MaxBodyBytes
// (or its default) sets MaxRequestBodyBytes, and a nil Logger gets the
// app's.
func HTTPOptions(opts *mcp.StreamableHTTPOptions) ServeOption {
	return func(c *serveConfig) { c.httpSetting("HTTPOptions"); c.sdkHTTP = opts }
}

// NoFastLane sends every request through the go-sdk's handlers. By default
// HTTPHandler answers the sessionless requests that need no stream
// (tools/call and tools/list of revision 2026-07-28 and later, and of
// Stateless() servers) itself, from the compiled plan, the way the go-sdk
// would, byte for byte, at a fraction of the cost; this option is for
// comparing the two, or ruling the lane out.
func NoFastLane() ServeOption {
	return func(c *serveConfig) { c.httpSetting("NoFastLane"); c.noLane = true }
}

// DefaultShutdownGrace is how long ListenAndServe lets in-flight calls run
// after its context is cancelled.
const DefaultShutdownGrace = 10 * time.Second

// ShutdownGrace sets how long ListenAndServe waits for in-flight calls when
// it stops (default DefaultShutdownGrace).
func ShutdownGrace(d time.Duration) ServeOption {
	return func(c *serveConfig) { c.httpSetting("ShutdownGrace"); c.shutdownGrace = d }
}
