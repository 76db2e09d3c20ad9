package vurb_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/vurbtest"
)

// clientProtocol is the protocol version the test client asks for: the one
// today's desktop clients and the conformance suite speak. Version
// 2026-07-28 moves server-to-client requests to multi-round-trip results;
// input_test.go drives both generations.
const clientProtocol = vurbtest.DefaultProtocol

// connect serves app to a real go-sdk client over the in-memory transport
// (vurbtest) and returns the client's session. Both ends close with the
// test.
func connect(t *testing.T, app *vurb.App, clientOpts *mcp.ClientOptions, opts ...vurb.ServeOption) *mcp.ClientSession {
	t.Helper()
	return connectVersion(t, clientProtocol, app, clientOpts, opts...)
}

func connectVersion(t *testing.T, version string, app *vurb.App, clientOpts *mcp.ClientOptions, opts ...vurb.ServeOption) *mcp.ClientSession {
	t.Helper()
	return vurbtest.New(t, app, vurbtest.Protocol(version), vurbtest.ClientOptions(clientOpts), vurbtest.Serve(opts...)).Session()
}

// callRaw sends a tools/call with args exactly as given.
func callRaw(t *testing.T, cs *mcp.ClientSession, name, args string) (*mcp.CallToolResult, error) {
	t.Helper()
	params := &mcp.CallToolParams{Name: name}
	if args != "" {
		params.Arguments = json.RawMessage(args)
	}
	return cs.CallTool(context.Background(), params)
}

// listNames returns the listed tool names; the SDK lists them sorted.
func listNames(t *testing.T, cs *mcp.ClientSession) []string {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	return names
}

// roleClass is a WithVisibility class: the "role" claim of the caller's
// verified token, "" for an anonymous caller.
func roleClass(c *vurb.Caller) string {
	if c.Token == nil {
		return ""
	}
	role, _ := c.Token.Extra["role"].(string)
	return role
}
