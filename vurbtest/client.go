package vurbtest

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
)

// Client is a real go-sdk client session connected to a vurb app, bound to
// one test. Its helpers fail that test when a request errs; it records
// what the server sends it unasked. Its methods may be called from several
// goroutines, as an *mcp.ClientSession's may; those that fail the test do
// so with t.Fatalf, which must run on the test's own goroutine.
type Client struct {
	t       testing.TB
	cfg     config
	client  *mcp.Client
	session *mcp.ClientSession
	tap     *tap

	progress recorder[*mcp.ProgressNotificationParams]
	logs     recorder[*mcp.LoggingMessageParams]
	updates  recorder[string]
}

// New serves app to a new client, connected and initialized with the
// protocol revision opts choose (DefaultProtocol unless Protocol says
// otherwise), over the go-sdk's in-memory transport or, with OverHTTP, a
// loopback HTTP server. It fails the test when the connection fails or the
// server settles on another revision. Everything it starts stops in
// t.Cleanup: the client, then the server, waiting for their goroutines to
// end. Connecting and closing are bounded by DefaultTimeout, or the
// Timeout if longer.
func New(t testing.TB, app *vurb.App, opts ...Option) *Client {
	t.Helper()
	c := &Client{t: t, cfg: newConfig(opts)}
	c.client = mcp.NewClient(&mcp.Implementation{Name: "vurbtest", Version: "1.0.0"}, c.clientOptions())
	c.client.AddRoots(c.cfg.roots...)
	if c.cfg.identity != nil {
		c.cfg.identity.check(t)
	}
	var transport mcp.Transport
	var stop func()
	if c.cfg.http {
		transport, stop = c.serveHTTP(app)
	} else {
		transport, stop = c.serveMemory(app)
	}
	if c.cfg.tap {
		c.tap = &tap{}
		transport = c.tap.wrap(transport)
	}
	ctx, cancel := context.WithTimeout(context.Background(), c.cfg.setup())
	defer cancel()
	cs, err := c.client.Connect(ctx, transport, &mcp.ClientSessionOptions{ProtocolVersion: c.cfg.protocol})
	if err != nil {
		stop()
		t.Fatalf("vurbtest: connecting over %s with protocol %s: %v", c.mode(), c.cfg.protocol, err)
	}
	c.session = cs
	t.Cleanup(func() {
		_ = cs.Close()
		stop()
	})
	if got := cs.InitializeResult().ProtocolVersion; got != c.cfg.protocol {
		t.Fatalf("vurbtest: asked for protocol %s, the server settled on %s", c.cfg.protocol, got)
	}
	if c.cfg.logLevel != "" && !c.sessionless() {
		if err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: c.cfg.logLevel}); err != nil {
			t.Fatalf("vurbtest: logging/setLevel %s: %v", c.cfg.logLevel, err)
		}
	}
	return c
}

// Session is the client's go-sdk session, for what the helpers do not
// cover. It is closed with the test; do not close it yourself.
func (c *Client) Session() *mcp.ClientSession { return c.session }

// Protocol is the protocol revision the client and server agreed on.
func (c *Client) Protocol() string { return c.session.InitializeResult().ProtocolVersion }

func (c *Client) sessionless() bool { return c.Protocol() >= Sessionless }

// clientOptions is a copy of the test's client options with vurbtest's
// recorders and scripted answers set.
func (c *Client) clientOptions() *mcp.ClientOptions {
	var o mcp.ClientOptions
	if c.cfg.client != nil {
		o = *c.cfg.client
	}
	progress, logs, updates := o.ProgressNotificationHandler, o.LoggingMessageHandler, o.ResourceUpdatedHandler
	o.ProgressNotificationHandler = func(ctx context.Context, r *mcp.ProgressNotificationClientRequest) {
		c.progress.add(r.Params)
		if progress != nil {
			progress(ctx, r)
		}
	}
	o.LoggingMessageHandler = func(ctx context.Context, r *mcp.LoggingMessageRequest) {
		c.logs.add(r.Params)
		if logs != nil {
			logs(ctx, r)
		}
	}
	o.ResourceUpdatedHandler = func(ctx context.Context, r *mcp.ResourceUpdatedNotificationRequest) {
		c.updates.add(r.Params.URI)
		if updates != nil {
			updates(ctx, r)
		}
	}
	if answer := c.cfg.elicit; answer != nil {
		o.ElicitationHandler = func(_ context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return answer(r.Params)
		}
	}
	if answer := c.cfg.sample; answer != nil {
		o.CreateMessageHandler = func(_ context.Context, r *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			return answer(r.Params)
		}
	}
	return &o
}
