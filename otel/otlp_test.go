package vurbotel_test

import (
	"context"
	"encoding/hex"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
	vurbotel "github.com/vurb-go/vurb/otel"
	"github.com/vurb-go/vurb/vurbtest"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/metric/noop"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
)

// TestExportsOverOTLPHTTP sends the spans as a deployment does, through
// the SDK's batch processor and OTLP/HTTP exporter, to a receiver on
// loopback that decodes the protobuf payload a collector receives.
func TestExportsOverOTLPHTTP(t *testing.T) {
	is := is.New(t)
	rcv := newReceiver(t)
	ctx := context.Background()
	exporter, err := otlptracehttp.New(ctx, otlptracehttp.WithEndpointURL(rcv.URL))
	is.NoErr(err)
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exporter, sdktrace.WithBatchTimeout(10*time.Millisecond)),
		sdktrace.WithResource(resource.NewSchemaless(semconv.ServiceName("docs"))))
	defer func() { is.NoErr(tp.Shutdown(ctx)) }()

	app := vurb.New(append(vurbotel.Options(vurbotel.WithTracerProvider(tp), vurbotel.WithMeterProvider(noop.NewMeterProvider()),
		vurbotel.WithClientTrace(vurbotel.TrustClientTrace)),
		vurb.WithName("docs"))...)
	vurb.Query(app, "docs.search", func(ctx context.Context, in searchIn) (string, error) {
		_, span := tp.Tracer("db").Start(ctx, "db.query")
		span.End()
		return in.Query, nil
	})
	c := vurbtest.New(t, app, vurbtest.OverHTTP())
	c.CallText("docs_search", searchIn{Query: "golang"}, vurbtest.Meta(mcp.Meta{"traceparent": metaParent}))

	var call, query *tracepb.Span
	deadline := time.Now().Add(10 * time.Second)
	for call == nil || query == nil {
		is.NoErr(tp.ForceFlush(ctx))
		call, query = rcv.find("tools/call docs_search"), rcv.find("db.query")
		if time.Now().After(deadline) {
			t.Fatalf("the receiver did not get the spans; got %d", len(rcv.Spans()))
		}
		time.Sleep(10 * time.Millisecond)
	}
	is.Equal(hex.EncodeToString(call.GetTraceId()), clientTrace)
	is.Equal(hex.EncodeToString(call.GetParentSpanId()), clientSpan)
	is.Equal(call.GetKind(), tracepb.Span_SPAN_KIND_SERVER)
	got := protoAttrs(call.GetAttributes())
	is.Equal(got["mcp.method.name"], "tools/call")
	is.Equal(got["gen_ai.tool.name"], "docs_search")
	is.Equal(got["vurb.action.key"], "docs.search")
	is.Equal(query.GetParentSpanId(), call.GetSpanId()) // the handler's span nests under the call's
	is.Equal(query.GetTraceId(), call.GetTraceId())
}
