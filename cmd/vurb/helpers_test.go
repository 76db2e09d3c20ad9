package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The test binary doubles as the servers the end-to-end tests need that
// are not vurb's: with VURB_E2E_SERVER set, TestMain runs one on stdio
// instead of the tests.
const serverEnv = "VURB_E2E_SERVER"

// helperServers are those servers, by the value of serverEnv.
var helperServers = map[string]func() error{
	"plain":    plainServer,
	"oldproto": oldProtocolServer,
	"typed":    typedServer,
}

// Greeting is the plain server's tool input.
type Greeting struct {
	Name string `json:"name" jsonschema:"who to greet"`
}

// plainServer is a server written with the go-sdk alone: a tool, a
// prompt and a resource.
func plainServer() error {
	s := mcp.NewServer(&mcp.Implementation{Name: "plain", Version: "0.1.0"}, &mcp.ServerOptions{Instructions: "Greets people."})
	mcp.AddTool(s, &mcp.Tool{Name: "greet", Description: "Say hello to someone"},
		func(_ context.Context, _ *mcp.CallToolRequest, in Greeting) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "hello, " + in.Name}}}, nil, nil
		})
	s.AddPrompt(&mcp.Prompt{Name: "welcome", Description: "A welcome message",
		Arguments: []*mcp.PromptArgument{{Name: "name", Required: true}}},
		func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{}, nil
		})
	s.AddResource(&mcp.Resource{URI: "file:///motd", Name: "motd", MIMEType: "text/plain"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, Text: "hi"}}}, nil
		})
	return s.Run(context.Background(), &mcp.StdioTransport{})
}

// Search is the typed server's tool input: a field of each JSON type.
type Search struct {
	Query  string         `json:"query"`
	Limit  int            `json:"limit"`
	Ratio  float64        `json:"ratio,omitempty"`
	Exact  bool           `json:"exact,omitempty"`
	Tags   []string       `json:"tags,omitempty"`
	Filter map[string]int `json:"filter,omitempty"`
}

// typedServer is a go-sdk server whose tool takes a field of each JSON
// type and answers a line of text for a person and the structured
// content for a program, as many servers do: the text is not the JSON.
func typedServer() error {
	s := mcp.NewServer(&mcp.Implementation{Name: "typed", Version: "0.1.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "search", Description: "Search"},
		func(_ context.Context, _ *mcp.CallToolRequest, in Search) (*mcp.CallToolResult, Search, error) {
			text := fmt.Sprintf("found %d results for %q", in.Limit, in.Query)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, in, nil
		})
	return s.Run(context.Background(), &mcp.StdioTransport{})
}

// oldProtocolServer answers initialize with a revision no client knows,
// and every other request with "method not found".
func oldProtocolServer() error {
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(in.Bytes(), &req) != nil || req.ID == nil {
			continue
		}
		if req.Method == "initialize" {
			fmt.Printf(`{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"1999-01-01","capabilities":{},"serverInfo":{"name":"old","version":"0"}}}`+"\n", req.ID)
			continue
		}
		fmt.Printf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"method not found"}}`+"\n", req.ID)
	}
	return in.Err()
}
