package vurb

import (
	"context"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"github.com/vurb-go/vurb/internal/edge"
	"github.com/vurb-go/vurb/store"
)

// HTTPHandler returns an http.Handler serving the app over MCP's streamable
// HTTP transport; mount it at /mcp. Under WithStateless() every request is
// self-contained, so replicas need no session affinity.
//
// Sessions close after WithSessionIdleTimeout without a request, and past
// WithMaxSessions a request that would open one gets 503.
//
// Behind your own http.Server, bound what the handler cannot: set
// ReadHeaderTimeout (10 s in ListenAndServe) and IdleTimeout (2 min), and
// cap the connections (a net.Listener that bounds them). Leave ReadTimeout
// and WriteTimeout unset: net/http applies them to the whole request, so
// they would cancel or cut the event streams that outlive them. Bound the
// body read and each write per request instead, with an
// http.ResponseController, as ListenAndServe does (see WithBodyReadTimeout and
// WithWriteTimeout); without that, a client that trickles its body or stops
// reading holds its connection for good. On SIGTERM, stop the server with
// Shutdown, not srv.Shutdown alone, which would wait for event streams that
// never go idle and leave the app's tasks unwaited; mount HealthHandler
// for the balancer's checks.
func (a *App) HTTPHandler(opts ...ServeOption) http.Handler {
	return a.site().HTTPHandler(serveOptions(opts)...)
}

// ListenAndServe serves the app over streamable HTTP at http://addr/mcp,
// and its liveness and readiness at /livez and /readyz (HealthHandler),
// until ctx is cancelled. Then it drains the app as Shutdown does, within
// the WithShutdownGrace period: readiness turns off, it stops accepting
// connections, lets calls already accepted finish and answer, closes the
// sessions, waits for the running tasks, cuts what remains when the grace
// ends, and returns nil. Any other failure is returned.
func (a *App) ListenAndServe(ctx context.Context, addr string, opts ...ServeOption) error {
	return a.site().ListenAndServe(ctx, addr, serveOptions(opts)...)
}

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
