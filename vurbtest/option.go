package vurbtest

import (
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
)

// DefaultProtocol is the protocol revision New negotiates unless Protocol
// says otherwise: 2025-11-25, the latest handshake-era revision, the one
// today's desktop clients and the conformance suite speak.
const DefaultProtocol = "2025-11-25"

// Sessionless is the 2026-07-28 protocol revision, where every request
// stands alone (server/discover instead of the initialize handshake, no
// session) and input requests (elicitation, sampling, roots) are
// multi-round-trip results. Over HTTP the go-sdk serves such requests
// without a session whether or not the handler is vurb.WithStateless.
const Sessionless = "2026-07-28"

// DefaultTimeout bounds each request a Client sends and each wait for
// notifications, unless Timeout says otherwise: a hung handler fails its
// test with a message instead of stalling the whole run.
const DefaultTimeout = 10 * time.Second

// An Option configures New (and Golden). Options are values of this
// package's own making; the unexported method keeps it so.
type Option interface {
	apply(*config)
}

// config is what the options set.
type config struct {
	protocol   string
	timeout    time.Duration
	serve      []vurb.ServeOption
	http       bool
	middleware []func(http.Handler) http.Handler
	client     *mcp.ClientOptions
	identity   *Identity
	logLevel   mcp.LoggingLevel
	elicit     func(*mcp.ElicitParams) (*mcp.ElicitResult, error)
	sample     func(*mcp.CreateMessageParams) (*mcp.CreateMessageResult, error)
	roots      []*mcp.Root
	tap        bool // record the raw results of tools/list, for Golden
}

func newConfig(opts []Option) config {
	c := config{protocol: DefaultProtocol, timeout: DefaultTimeout}
	for _, o := range opts {
		o.apply(&c)
	}
	return c
}

type optionFunc func(*config)

func (f optionFunc) apply(c *config) { f(c) }

// Protocol makes the client negotiate revision (2025-06-18, 2025-11-25,
// 2026-07-28, ...; any of mcp.SupportedProtocolVersions()). New fails the
// test when the server settles on another one, so a test never passes on a
// revision it did not ask for.
func Protocol(revision string) Option {
	return optionFunc(func(c *config) { c.protocol = revision })
}

// Timeout bounds each request the Client sends and each wait for
// notifications (default DefaultTimeout). Connecting and closing keep at
// least DefaultTimeout, so a Timeout tight enough to catch one slow call
// does not fail the handshake of a busy machine.
func Timeout(d time.Duration) Option {
	return optionFunc(func(c *config) { c.timeout = d })
}

// setup bounds connecting and closing.
func (c *config) setup() time.Duration { return max(c.timeout, DefaultTimeout) }

// Serve passes vurb's serve options to the server under test: tag filters
// (vurb.WithIncludeTags, vurb.WithExcludeTags) in either mode, HTTP
// settings (vurb.WithStateless, vurb.WithJSONResponse, ...) with OverHTTP
// only. Options accumulate.
func Serve(opts ...vurb.ServeOption) Option {
	return optionFunc(func(c *config) { c.serve = append(c.serve, opts...) })
}

// OverHTTP serves the app through app.HTTPHandler on a loopback HTTP
// server (127.0.0.1, net/http/httptest) instead of the in-memory transport,
// wrapped in middleware, the first outermost, as a production server wraps
// it. Requests carry the Identity's headers.
func OverHTTP(middleware ...func(http.Handler) http.Handler) Option {
	return optionFunc(func(c *config) {
		c.http = true
		c.middleware = append(c.middleware, middleware...)
	})
}

// ClientOptions passes the go-sdk's own client options through (keep-alive,
// capabilities, list-changed handlers, ...). vurbtest sets over a copy what
// it owns: the progress, log and resource-update handlers (which still call
// yours after recording), and the elicitation and sampling handlers when
// OnElicit or OnSample is given.
func ClientOptions(opts *mcp.ClientOptions) Option {
	return optionFunc(func(c *config) { c.client = opts })
}

// LogLevel makes the client ask for log messages at level and above: with
// logging/setLevel once connected on handshake-era revisions, and in every
// request's _meta on 2026-07-28. Without it the server sends none, as to a
// client that never asked. Client.Logs returns what arrived.
func LogLevel(level mcp.LoggingLevel) Option {
	return optionFunc(func(c *config) { c.logLevel = level })
}

func withTap() Option { return optionFunc(func(c *config) { c.tap = true }) }
