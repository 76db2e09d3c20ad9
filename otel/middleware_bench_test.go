package vurbotel

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/observe"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	tracenoop "go.opentelemetry.io/otel/trace/noop"
)

// discardSpans is a span exporter that drops what it is given.
type discardSpans struct{}

func (discardSpans) ExportSpans(context.Context, []sdktrace.ReadOnlySpan) error { return nil }
func (discardSpans) Shutdown(context.Context) error                             { return nil }

// BenchmarkRequestMiddleware is vurbotel's own share of a served tool
// call, without a transport or vurb's pipeline: the request middleware
// around a handler that only reports the call's outcome, as vurb's
// observer does, with OpenTelemetry's no-op providers and with the SDK's
// (every span sampled, a batch processor whose exporter discards, metrics
// aggregated by a manual reader). bench/otel_test.go has the whole calls.
func BenchmarkRequestMiddleware(b *testing.B) {
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(discardSpans{}), sdktrace.WithSampler(sdktrace.AlwaysSample()))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))
	defer func() { _ = tp.Shutdown(context.Background()); _ = mp.Shutdown(context.Background()) }()
	for _, c := range []struct {
		name string
		cfg  config
	}{
		{"noop", newConfig([]Option{WithTracerProvider(tracenoop.NewTracerProvider()), WithMeterProvider(metricnoop.NewMeterProvider())})},
		{"sdk", newConfig([]Option{WithTracerProvider(tp), WithMeterProvider(mp)})},
	} {
		b.Run("provider="+c.name, func(b *testing.B) {
			in := newInstrumentation(c.cfg)
			result := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "golang"}}}
			handler := in.middleware(func(ctx context.Context, _ string, _ mcp.Request) (mcp.Result, error) {
				in.observe(ctx, observe.Event{Kind: observe.CallFinished, Time: time.Now(), Tool: "docs", Action: "search",
					Key: "docs.search", Name: "docs_search", RequestID: "1", Outcome: observe.OutcomeOK})
				return result, nil
			})
			req := &mcp.CallToolRequest{
				Params: &mcp.CallToolParamsRaw{Name: "docs_search", Meta: mcp.Meta{
					"traceparent":              "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
					mcp.MetaKeyProtocolVersion: "2026-07-28"}},
				Extra: &mcp.RequestExtra{Header: http.Header{"Content-Type": {"application/json"}}},
			}
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := handler(ctx, "tools/call", req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
