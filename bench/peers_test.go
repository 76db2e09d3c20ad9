package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"testing"

	mcpgoclient "github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpgoserver "github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
)

// The peers declare the same tool, docs_search, with the same Search input,
// and answer the same arguments with the same text ("golang"). Every
// hand-written peer runs the same validator.Struct vurb runs, so that each
// one enforces the min/max rule vurb enforces; it costs well under 1 µs of
// a round trip of hundreds.

const peerTool = "docs_search"

// peer is one side-by-side contender: call does one tools/call round trip
// and returns the result text; close releases what the setup opened.
type peer struct {
	name  string
	setup func(tb testing.TB) (call func(ctx context.Context) (string, error), close func())
}

var peers = []peer{
	{"vurb", setupVurb},
	{"gosdk-generic", setupGoSDKGeneric},
	{"gosdk-raw", setupGoSDKRaw},
	{"mcp-go", setupMCPGo},
	{"mcp-go-server-only", setupMCPGoServerOnly},
}

// BenchmarkRoundTrip is one tools/call round trip per iteration, client
// and server in one process. Sessions are connected before the timed loop.
func BenchmarkRoundTrip(b *testing.B) {
	for _, p := range peers {
		b.Run("peer="+p.name, func(b *testing.B) {
			call, closeFn := p.setup(b)
			defer closeFn()
			ctx := context.Background()
			if got, err := call(ctx); err != nil || got != wantText {
				b.Fatalf("%s: %q, %v; want %q", p.name, got, err, wantText)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := call(ctx); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestPeersSameResult checks that every peer answers the same call with
// the same text, so the round-trip figures compare the same work.
func TestPeersSameResult(t *testing.T) {
	for _, p := range peers {
		t.Run(p.name, func(t *testing.T) {
			call, closeFn := p.setup(t)
			defer closeFn()
			for range 3 {
				got, err := call(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				if got != wantText {
					t.Fatalf("result text %q, want %q", got, wantText)
				}
			}
		})
	}
}

// --- go-sdk based peers -----------------------------------------------------

// connectGoSDK connects a go-sdk client to server over the in-memory
// transport and returns a call of docs_search.
func connectGoSDK(tb testing.TB, server *mcp.Server) (func(context.Context) (string, error), func()) {
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		tb.Fatal(err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "bench-client", Version: "1.0.0"}, nil)
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		tb.Fatal(err)
	}
	params := &mcp.CallToolParams{Name: peerTool, Arguments: searchArgs}
	call := func(ctx context.Context) (string, error) {
		res, err := cs.CallTool(ctx, params)
		if err != nil {
			return "", err
		}
		if res.IsError {
			return "", fmt.Errorf("tool error: %s", resultText(res))
		}
		return resultText(res), nil
	}
	return call, func() { cs.Close(); ss.Wait() }
}

// discard is the logger the vurb peer gets: the other go-sdk peers run
// with the SDK's default, which discards; vurb hands its own logger
// (slog.Default() unless told otherwise) to the server it makes.
var discard = slog.New(slog.DiscardHandler)

// (a) vurb attached to a go-sdk server (app.NewServer).
func setupVurb(tb testing.TB) (func(context.Context) (string, error), func()) {
	app := vurb.New(vurb.WithName("bench"), vurb.WithVersion("1.0.0"), vurb.WithLogger(discard))
	vurb.Query(app, "docs.search", search).Describe("Search the documents")
	return connectGoSDK(tb, app.NewServer())
}

// (b) the go-sdk's generic mcp.AddTool: schema inferred from Search, input
// validated against it and unmarshalled by the SDK.
func setupGoSDKGeneric(tb testing.TB) (func(context.Context) (string, error), func()) {
	server := mcp.NewServer(&mcp.Implementation{Name: "bench", Version: "1.0.0"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: peerTool, Description: "Search the documents"},
		func(ctx context.Context, _ *mcp.CallToolRequest, in Search) (*mcp.CallToolResult, any, error) {
			if err := validate.Struct(&in); err != nil {
				return nil, nil, err
			}
			out, err := search(ctx, in)
			if err != nil {
				return nil, nil, err
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: out}}}, nil, nil
		})
	return connectGoSDK(tb, server)
}

// rawSearchSchema is the hand-written input schema of the raw peers.
var rawSearchSchema = json.RawMessage(`{"type":"object","properties":{` +
	`"query":{"type":"string","description":"Search text"},` +
	`"limit":{"type":"integer","minimum":1,"maximum":100,"description":"Page size"}},` +
	`"required":["query"],"additionalProperties":false}`)

// rawSearch is the hand-written handler: json.Unmarshal, validator.Struct,
// the handler.
func rawSearch(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
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
}

// (c) the go-sdk's raw server.AddTool: hand-written schema, manual
// unmarshal. The SDK validates nothing on this path.
func setupGoSDKRaw(tb testing.TB) (func(context.Context) (string, error), func()) {
	server := mcp.NewServer(&mcp.Implementation{Name: "bench", Version: "1.0.0"}, nil)
	server.AddTool(&mcp.Tool{Name: peerTool, Description: "Search the documents", InputSchema: rawSearchSchema}, rawSearch)
	return connectGoSDK(tb, server)
}

// --- mcp-go -----------------------------------------------------------------

// newMCPGoServer is mcp-go's idiomatic typed tool: schema from the struct
// (WithInputSchema), arguments bound by NewTypedToolHandler.
func newMCPGoServer() *mcpgoserver.MCPServer {
	s := mcpgoserver.NewMCPServer("bench", "1.0.0", mcpgoserver.WithToolCapabilities(false))
	tool := mcpgo.NewTool(peerTool, mcpgo.WithDescription("Search the documents"), mcpgo.WithInputSchema[Search]())
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

func mcpGoText(res *mcpgo.CallToolResult) (string, error) {
	if res == nil || len(res.Content) == 0 {
		return "", fmt.Errorf("empty result")
	}
	text := mcpgo.GetTextFromContent(res.Content[0])
	if res.IsError {
		return "", fmt.Errorf("tool error: %s", text)
	}
	return text, nil
}

// (d) mcp-go with its in-process client.
func setupMCPGo(tb testing.TB) (func(context.Context) (string, error), func()) {
	ctx := context.Background()
	c, err := mcpgoclient.NewInProcessClient(newMCPGoServer())
	if err != nil {
		tb.Fatal(err)
	}
	if err := c.Start(ctx); err != nil {
		tb.Fatal(err)
	}
	init := mcpgo.InitializeRequest{}
	init.Params.ClientInfo = mcpgo.Implementation{Name: "bench-client", Version: "1.0.0"}
	if _, err := c.Initialize(ctx, init); err != nil {
		tb.Fatal(err)
	}
	req := mcpgo.CallToolRequest{}
	req.Params.Name = peerTool
	req.Params.Arguments = searchArgs
	call := func(ctx context.Context) (string, error) {
		res, err := c.CallTool(ctx, req)
		if err != nil {
			return "", err
		}
		return mcpGoText(res)
	}
	return call, func() { c.Close() }
}

// mcp-go's server side alone: the JSON-RPC request bytes in, the response
// message out, no client and no transport.
func setupMCPGoServerOnly(tb testing.TB) (func(context.Context) (string, error), func()) {
	s := newMCPGoServer()
	msg := json.RawMessage(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + peerTool +
		`","arguments":` + string(searchArgs) + `}}`)
	call := func(ctx context.Context) (string, error) {
		resp := s.HandleMessage(ctx, msg)
		r, ok := resp.(mcpgo.JSONRPCResponse)
		if !ok {
			return "", fmt.Errorf("response %T: %+v", resp, resp)
		}
		res, ok := r.Result.(*mcpgo.CallToolResult)
		if !ok {
			return "", fmt.Errorf("result %T", r.Result)
		}
		return mcpGoText(res)
	}
	return call, func() {}
}
