package vurbtest

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// tap keeps the raw JSON results of the tools/list requests a client
// sends, as the server wrote them: key order and all, which a decoded
// *mcp.Tool would lose (its inputSchema is a map once decoded).
type tap struct {
	mu      sync.Mutex
	pending map[jsonrpc.ID]bool
	pages   []json.RawMessage
}

func (t *tap) wrap(tr mcp.Transport) mcp.Transport { return &tapTransport{Transport: tr, tap: t} }

// results returns the tools/list results received so far.
func (t *tap) results() []json.RawMessage {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]json.RawMessage(nil), t.pages...)
}

type tapTransport struct {
	mcp.Transport
	tap *tap
}

func (tt *tapTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	conn, err := tt.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &tapConn{Connection: conn, tap: tt.tap}, nil
}

// tapConn wraps an in-memory connection, which implements no optional
// interface of the go-sdk's that the wrapper would hide.
type tapConn struct {
	mcp.Connection
	tap *tap
}

func (c *tapConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() && req.Method == "tools/list" {
		c.tap.mu.Lock()
		if c.tap.pending == nil {
			c.tap.pending = map[jsonrpc.ID]bool{}
		}
		c.tap.pending[req.ID] = true
		c.tap.mu.Unlock()
	}
	return c.Connection.Write(ctx, msg)
}

func (c *tapConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if res, ok := msg.(*jsonrpc.Response); ok && res.Error == nil {
		c.tap.mu.Lock()
		if c.tap.pending[res.ID] {
			delete(c.tap.pending, res.ID)
			c.tap.pages = append(c.tap.pages, bytes.Clone(res.Result))
		}
		c.tap.mu.Unlock()
	}
	return msg, err
}
