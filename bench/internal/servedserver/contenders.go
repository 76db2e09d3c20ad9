package main

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"os"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpgoserver "github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
)

// contender serves docs_search one way: as a streamable HTTP handler
// (stateful or stateless) or on this process's standard input and output.
// Each is built the way its documentation shows, with nothing tuned.
type contender struct {
	http  func(stateless bool) http.Handler
	stdio func(ctx context.Context) error
}

var contenders = map[string]contender{
	"vurb":      {http: vurbHTTP, stdio: vurbStdio},
	"gosdk-raw": {http: goSDKHTTP, stdio: goSDKStdio},
	"mcp-go":    {http: mcpGoHTTP, stdio: mcpGoStdio},
}

// discard is every contender's logger: the go-sdk's default discards, vurb
// would otherwise log through slog.Default() and mcp-go's HTTP server too.
var discard = slog.New(slog.DiscardHandler)

// --- vurb: only its public API, which the refactor keeps ---------------------

func newVurb() *vurb.App {
	app := vurb.New(vurb.WithName("bench"), vurb.WithVersion("1.0.0"), vurb.WithLogger(discard))
	vurb.Query(app, "docs.search", search).Describe("Search the documents")
	return app
}

func vurbHTTP(stateless bool) http.Handler {
	if stateless {
		return newVurb().HTTPHandler(vurb.Stateless())
	}
	return newVurb().HTTPHandler()
}

func vurbStdio(ctx context.Context) error { return newVurb().Serve(ctx, vurb.Stdio()) }

// --- the go-sdk's raw server.AddTool: hand-written schema, json.Unmarshal
// and validator.Struct in the handler, as bench/peers_test.go's gosdk-raw.

func newGoSDK() *mcp.Server {
	server := mcp.NewServer(&mcp.Implementation{Name: "bench", Version: "1.0.0"}, nil)
	server.AddTool(&mcp.Tool{Name: toolName, Description: "Search the documents", InputSchema: rawSearchSchema},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var in Search
			if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
				return nil, err
			}
			if err := validate.Struct(&in); err != nil {
				return nil, err
			}
			out, err := search(ctx, in)
			if err != nil {
				return nil, err
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: out}}}, nil
		})
	return server
}

func goSDKHTTP(stateless bool) http.Handler {
	server := newGoSDK()
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
		&mcp.StreamableHTTPOptions{Stateless: stateless})
}

func goSDKStdio(ctx context.Context) error { return newGoSDK().Run(ctx, &mcp.StdioTransport{}) }

// --- mcp-go: its typed tool (schema from the struct, arguments bound by
// NewTypedToolHandler) and validator.Struct, as bench/peers_test.go's.

func newMCPGo() *mcpgoserver.MCPServer {
	s := mcpgoserver.NewMCPServer("bench", "1.0.0", mcpgoserver.WithToolCapabilities(false))
	tool := mcpgo.NewTool(toolName, mcpgo.WithDescription("Search the documents"), mcpgo.WithInputSchema[Search]())
	s.AddTool(tool, mcpgo.NewTypedToolHandler(func(ctx context.Context, _ mcpgo.CallToolRequest, in Search) (*mcpgo.CallToolResult, error) {
		if err := validate.Struct(&in); err != nil {
			return nil, err
		}
		out, err := search(ctx, in)
		if err != nil {
			return nil, err
		}
		return mcpgo.NewToolResultText(out), nil
	}))
	return s
}

// mcpGoHTTP is stateful with WithStateful (sessions issued and checked);
// mcp-go's default issues session ids but checks none, which is neither.
func mcpGoHTTP(stateless bool) http.Handler {
	opts := []mcpgoserver.StreamableHTTPOption{mcpgoserver.WithStreamableHTTPLogger(discard)}
	if stateless {
		opts = append(opts, mcpgoserver.WithStateLess(true))
	} else {
		opts = append(opts, mcpgoserver.WithStateful(true))
	}
	return mcpgoserver.NewStreamableHTTPServer(newMCPGo(), opts...)
}

func mcpGoStdio(ctx context.Context) error {
	return mcpgoserver.NewStdioServer(newMCPGo()).Listen(ctx, os.Stdin, os.Stdout)
}
