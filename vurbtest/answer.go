package vurbtest

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// OnElicit makes the client declare the elicitation capability and answer
// every elicitation the server asks for with answer, which sees what was
// asked. The same answer serves both generations: on handshake-era
// revisions the server asks the session (elicitation/create); on
// 2026-07-28 the go-sdk client answers the input requests of an
// input-required result and retries the request by itself. Without
// OnElicit the client declares no elicitation capability, and vurb's Ask
// fails with ErrUnsupported, a -32021 protocol error.
func OnElicit(answer func(*mcp.ElicitParams) (*mcp.ElicitResult, error)) Option {
	return optionFunc(func(c *config) { c.elicit = answer })
}

// Accept is an OnElicit answer: the user accepted and filled in content.
func Accept(content map[string]any) func(*mcp.ElicitParams) (*mcp.ElicitResult, error) {
	return func(*mcp.ElicitParams) (*mcp.ElicitResult, error) {
		return &mcp.ElicitResult{Action: "accept", Content: content}, nil
	}
}

// Decline is an OnElicit answer: the user refused.
func Decline() func(*mcp.ElicitParams) (*mcp.ElicitResult, error) {
	return func(*mcp.ElicitParams) (*mcp.ElicitResult, error) {
		return &mcp.ElicitResult{Action: "decline"}, nil
	}
}

// OnSample makes the client declare the sampling capability and answer
// every sampling request (sampling/createMessage) with answer, on both
// generations, as OnElicit does for elicitation. MCP deprecates sampling
// as of 2026-07-28.
func OnSample(answer func(*mcp.CreateMessageParams) (*mcp.CreateMessageResult, error)) Option {
	return optionFunc(func(c *config) { c.sample = answer })
}

// Reply is an OnSample answer: the model (called "vurbtest") replied text.
func Reply(text string) func(*mcp.CreateMessageParams) (*mcp.CreateMessageResult, error) {
	return func(*mcp.CreateMessageParams) (*mcp.CreateMessageResult, error) {
		return &mcp.CreateMessageResult{Model: "vurbtest", Role: "assistant", Content: &mcp.TextContent{Text: text}}, nil
	}
}

// Roots makes the client offer roots (roots/list, or a roots input request
// on 2026-07-28), the directories or files it shares with the server.
// Options accumulate.
func Roots(roots ...*mcp.Root) Option {
	return optionFunc(func(c *config) { c.roots = append(c.roots, roots...) })
}

// AddRoots adds roots to those the client offers, replacing any with the
// same URI, and tells the server (notifications/roots/list_changed), as a
// client does when its user opens a folder.
func (c *Client) AddRoots(roots ...*mcp.Root) { c.client.AddRoots(roots...) }
