package edge

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// LocalToken is vurb.WithLocalToken; see its documentation there.
func LocalToken(info *auth.TokenInfo) ServeOption {
	if info == nil {
		panic("vurb: WithLocalToken: the token is nil; leave the option out to serve an anonymous caller")
	}
	return func(c *serveConfig) { c.localToken = info }
}

// mustNotStateLocal panics when WithLocalToken reached where, which does
// not own the transport its callers come through.
func (c *serveConfig) mustNotStateLocal(where string) {
	if c.localToken == nil {
		return
	}
	switch where {
	case "HTTPHandler", "ListenAndServe":
		panic(fmt.Sprintf("vurb: %s: WithLocalToken states who the caller of Serve's transport is, and an HTTP request "+
			"states its own: HTTP callers are identified by their verified bearer tokens; use WithBearerAuth", where))
	default:
		panic(fmt.Sprintf("vurb: %s: WithLocalToken applies to Serve, which owns the transport its caller comes through; "+
			"pass your transport to Serve with it", where))
	}
}

// localTransport is a transport whose every request carries token as its
// verified token, as streamable HTTP hands the go-sdk a request's token:
// in the jsonrpc.Request's Extra, which becomes the go-sdk request's Extra.
type localTransport struct {
	mcp.Transport
	token *auth.TokenInfo
}

// SupportsProtocolVersion keeps what the wrapped transport says it serves
// (mcp.ProtocolVersionSupporter): every version when it says nothing.
func (t localTransport) SupportsProtocolVersion(version string) bool {
	pvs, ok := t.Transport.(mcp.ProtocolVersionSupporter)
	return !ok || pvs.SupportsProtocolVersion(version)
}

func (t localTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	conn, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return localConn{conn, t.token}, nil
}

// localConn is a connection of localTransport.
type localConn struct {
	mcp.Connection
	token *auth.TokenInfo
}

// Read gives every request read the local token; a request's headers, if
// its transport set any, are kept.
func (c localConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if req, ok := msg.(*jsonrpc.Request); ok && err == nil {
		extra := &mcp.RequestExtra{TokenInfo: c.token}
		if had, ok := req.Extra.(*mcp.RequestExtra); ok && had != nil {
			copied := *had
			copied.TokenInfo = c.token
			extra = &copied
		}
		req.Extra = extra
	}
	return msg, err
}
