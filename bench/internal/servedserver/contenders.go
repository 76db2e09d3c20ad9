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
	// sessionless serves requests of revision 2026-07-28, or is nil when
	// the contender cannot.
	sessionless func() http.Handler
}

var contenders = map[string]contender{
	"vurb":     {http: vurbHTTP, stdio: vurbStdio, sessionless: func() http.Handler { return newVurb().HTTPHandler(shared.serve...) }},
	"vurb-sdk": {http: vurbSDKHTTP, stdio: vurbStdio, sessionless: func() http.Handler { return newVurb().HTTPHandler(serving(vurb.WithFastLane(false))...) }},
	// vurb-inline runs handlers on the caller's goroutine: beside vurb, it
	// shows what the worker hand-off costs a served call.
	"vurb-inline": {http: func(stateless bool) http.Handler { return vurbWith(stateless, vurb.WithInlineHandlers()) },
		stdio:       func(ctx context.Context) error { return newVurb(vurb.WithInlineHandlers()).Serve(ctx, vurb.Stdio()) },
		sessionless: func() http.Handler { return newVurb(vurb.WithInlineHandlers()).HTTPHandler(shared.serve...) }},
	"gosdk-raw": {http: goSDKHTTP, stdio: goSDKStdio, sessionless: func() http.Handler { return goSDKHTTP(true) }},
	"mcp-go":    {http: mcpGoHTTP, stdio: mcpGoStdio},
}

// discard is every contender's logger: the go-sdk's default discards, vurb
// would otherwise log through slog.Default() and mcp-go's HTTP server too.
var discard = slog.New(slog.DiscardHandler)

// --- vurb: only its public API, which the refactor keeps ---------------------

func newVurb(opts ...vurb.Option) *vurb.App {
	base := []vurb.Option{vurb.WithName("bench"), vurb.WithVersion("1.0.0"), vurb.WithLogger(discard)}
	app := vurb.New(append(append(base, shared.opts...), opts...)...)
	vurb.Query(app, "docs.search", search).Describe("Search the documents")
	return app
}

func vurbHTTP(stateless bool) http.Handler {
	if stateless {
		return newVurb().HTTPHandler(serving(vurb.WithStateless())...)
	}
	return newVurb().HTTPHandler(shared.serve...)
}

func vurbWith(stateless bool, opts ...vurb.Option) http.Handler {
	if stateless {
		return newVurb(opts...).HTTPHandler(serving(vurb.WithStateless())...)
	}
	return newVurb(opts...).HTTPHandler(shared.serve...)
}

// serving is opts after what -redis set (shared.serve).
func serving(opts ...vurb.ServeOption) []vurb.ServeOption {
	return append(append([]vurb.ServeOption(nil), shared.serve...), opts...)
}

// vurbSDKHTTP is vurb with its fast lane off: every request through the
// go-sdk's handlers.
func vurbSDKHTTP(stateless bool) http.Handler {
	if stateless {
		return newVurb().HTTPHandler(serving(vurb.WithStateless(), vurb.WithFastLane(false))...)
	}
	return newVurb().HTTPHandler(serving(vurb.WithFastLane(false))...)
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
