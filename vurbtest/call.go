package vurbtest

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Call calls the tool called name with args encoded as JSON (a struct, a
// map, a json.RawMessage sent as is, or nil for no arguments) and decodes
// the result into an Out: its structuredContent when it has one (a handler
// that returns a struct or a map), otherwise its text as JSON. It fails
// the test, quoting the tool's own error text, when the call fails in any
// way: a protocol error, a tool error (isError), a result that does not
// decode into Out. Decoding is encoding/json's: fields Out does not
// declare are ignored, as a client would ignore them.
func Call[Out any](c *Client, name string, args any, opts ...CallOption) Out {
	c.t.Helper()
	res := c.succeed(name, args, opts)
	data, from := []byte(Text(res)), "text"
	if res.StructuredContent != nil {
		var err error
		if data, err = json.Marshal(res.StructuredContent); err != nil {
			c.t.Fatalf("vurbtest: %s: re-encoding its structuredContent: %v", c.describe(name, args), err)
		}
		from = "structuredContent"
	}
	var out Out
	if err := json.Unmarshal(data, &out); err != nil {
		c.t.Fatalf("vurbtest: %s: its %s does not decode into %T: %v\n%s", c.describe(name, args), from, out, err, short(data))
	}
	return out
}

// CallText calls the tool called name with args, as Call does, and
// returns the result's text (see Text). It fails the test on a protocol
// error or a tool error, quoting the error text.
func (c *Client) CallText(name string, args any, opts ...CallOption) string {
	c.t.Helper()
	return Text(c.succeed(name, args, opts))
}

// CallError calls the tool called name with args, for a test that expects
// the tool to refuse: it returns the error text the model reads (isError
// true), and fails the test when the call succeeds or fails with a
// protocol error instead.
func (c *Client) CallError(name string, args any, opts ...CallOption) string {
	c.t.Helper()
	res, err := c.CallResult(name, args, opts...)
	switch {
	case err != nil:
		c.t.Fatalf("vurbtest: %s: protocol error %v; want a tool error (isError)", c.describe(name, args), err)
	case !res.IsError:
		c.t.Fatalf("vurbtest: %s succeeded with %q; want a tool error (isError)", c.describe(name, args), Text(res))
	}
	return Text(res)
}

// CallResult calls the tool called name with args and returns what the
// client got, failing the test only when args cannot be encoded: the
// result, tool errors included, or the protocol error (an unknown tool, a
// cancelled call, the Client's Timeout, which the error then names).
func (c *Client) CallResult(name string, args any, opts ...CallOption) (*mcp.CallToolResult, error) {
	c.t.Helper()
	params := &mcp.CallToolParams{Name: name}
	if raw := c.encode(c.describe(name, args), args); raw != nil {
		params.Arguments = raw
	}
	r := c.begin(opts)
	defer r.end()
	params.Meta = r.meta
	res, err := c.session.CallTool(r.ctx, params)
	return res, r.explain(err)
}

// succeed is CallResult that fails the test unless the call succeeded.
func (c *Client) succeed(name string, args any, opts []CallOption) *mcp.CallToolResult {
	c.t.Helper()
	res, err := c.CallResult(name, args, opts...)
	switch {
	case err != nil:
		c.t.Fatalf("vurbtest: %s: %v", c.describe(name, args), err)
	case res.IsError:
		c.t.Fatalf("vurbtest: %s: tool error: %s", c.describe(name, args), Text(res))
	}
	return res
}

// describe names a call in failure messages.
func (c *Client) describe(name string, args any) string {
	if args == nil {
		return fmt.Sprintf("tools/call %s", name)
	}
	data, err := json.Marshal(args)
	if err != nil {
		return fmt.Sprintf("tools/call %s %#v", name, args)
	}
	return fmt.Sprintf("tools/call %s %s", name, short(data))
}

// Text returns the text of res's text blocks, joined by newlines; other
// blocks (images, audio, resources) are skipped. A nil res has none.
func Text(res *mcp.CallToolResult) string {
	if res == nil {
		return ""
	}
	var parts []string
	for _, block := range res.Content {
		if t, ok := block.(*mcp.TextContent); ok {
			parts = append(parts, t.Text)
		}
	}
	return strings.Join(parts, "\n")
}
