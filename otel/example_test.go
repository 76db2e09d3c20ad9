package vurbotel_test

import (
	"context"
	"fmt"
	"log"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
	vurbotel "github.com/vurb-go/vurb/otel"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// ExampleOptions instruments an app: every request its servers receive
// gets a span named after the conventions for MCP. A deployment passes
// no provider and installs the global ones (otel.SetTracerProvider) with
// an OTLP exporter instead: see examples/quickstart.
func ExampleOptions() {
	spans := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans))

	app := vurb.New(append(vurbotel.Options(vurbotel.WithTracerProvider(tp)), vurb.WithName("docs"))...)
	vurb.Query(app, "docs.search", func(ctx context.Context, in struct {
		Query string `json:"query" validate:"required"`
	}) (string, error) {
		return in.Query, nil
	})

	// Serve it and call it, as a client would.
	ctx := context.Background()
	serverT, clientT := mcp.NewInMemoryTransports()
	ss, err := app.NewServer().Connect(ctx, serverT, nil)
	if err != nil {
		log.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "client"}, nil).Connect(ctx, clientT, nil)
	if err != nil {
		log.Fatal(err)
	}
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "docs_search", Arguments: map[string]any{"query": "otel"}}); err != nil {
		log.Fatal(err)
	}
	_ = cs.Close()
	_ = ss.Wait()

	for _, s := range spans.GetSpans() {
		if s.Name != "tools/call docs_search" {
			continue
		}
		fmt.Println(s.Name, s.SpanKind)
		for _, kv := range s.Attributes {
			switch kv.Key {
			case "mcp.method.name", "gen_ai.tool.name", "gen_ai.operation.name", "vurb.action.key", "vurb.outcome":
				fmt.Printf("  %s=%s\n", kv.Key, kv.Value.Emit())
			}
		}
	}
	// Output:
	// tools/call docs_search server
	//   mcp.method.name=tools/call
	//   gen_ai.tool.name=docs_search
	//   gen_ai.operation.name=execute_tool
	//   vurb.action.key=docs.search
	//   vurb.outcome=none
}
