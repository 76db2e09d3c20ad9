package vurbtest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
)

// serveMemory connects a new server for app to one end of an in-memory
// pipe and returns the other end.
func (c *Client) serveMemory(app *vurb.App) (mcp.Transport, func()) {
	c.t.Helper()
	server := c.newServer(app)
	if c.cfg.identity != nil {
		server.AddReceivingMiddleware(c.cfg.identity.middleware())
	}
	serverT, clientT := mcp.NewInMemoryTransports()
	ss, err := server.Connect(context.Background(), serverT, nil)
	if err != nil {
		c.t.Fatalf("vurbtest: starting the server session: %v", err)
	}
	return clientT, func() {
		_ = ss.Close()
		await(c.t, "the server session", c.cfg.setup(), func() { _ = ss.Wait() })
	}
}

// newServer is app.NewServer, whose panic on HTTP settings becomes a test
// failure that says where they belong.
func (c *Client) newServer(app *vurb.App) (server *mcp.Server) {
	c.t.Helper()
	defer func() {
		if r := recover(); r != nil {
			c.t.Fatalf("vurbtest: %v (vurbtest serves in memory unless given vurbtest.OverHTTP())", r)
		}
	}()
	return app.NewServer(c.cfg.serve...)
}

// serveHTTP serves app.HTTPHandler, wrapped in the test's middleware, on
// a loopback server, and returns a client transport whose requests carry
// the identity.
func (c *Client) serveHTTP(app *vurb.App) (mcp.Transport, func()) {
	h := app.HTTPHandler(c.cfg.serve...)
	if id := c.cfg.identity; id != nil {
		h = id.requireToken(h)
	}
	for i := len(c.cfg.middleware) - 1; i >= 0; i-- {
		h = c.cfg.middleware[i](h)
	}
	srv := httptest.NewServer(h)
	rt := srv.Client().Transport // its idle connections close with srv
	if id := c.cfg.identity; id != nil {
		rt = id.transport(rt)
	}
	return &mcp.StreamableClientTransport{Endpoint: srv.URL, HTTPClient: &http.Client{Transport: rt}}, func() {
		await(c.t, "the HTTP server", c.cfg.setup(), srv.Close)
	}
}

// await runs stop, and reports a test error when it takes longer than
// limit: the cleanup of a test whose handler never returns must end.
func await(t testing.TB, what string, limit time.Duration, stop func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		stop()
	}()
	select {
	case <-done:
	case <-time.After(limit):
		t.Errorf("vurbtest: %s did not stop within %v of the test's end: a handler is still running and ignores its context", what, limit)
	}
}

func (c *Client) mode() string {
	if c.cfg.http {
		return "HTTP"
	}
	return "the in-memory transport"
}
