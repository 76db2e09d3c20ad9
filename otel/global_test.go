package vurbotel_test

import (
	"context"
	"testing"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb"
	vurbotel "github.com/vurb-go/vurb/otel"
	"github.com/vurb-go/vurb/vurbtest"
	"go.opentelemetry.io/otel"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// TestGlobalProvidersInstalledAfterOptions: without providers, vurbotel
// uses the global ones, and follows an otel.SetTracerProvider (and
// SetMeterProvider) made after Options, as a main that builds its app
// before its telemetry does.
func TestGlobalProvidersInstalledAfterOptions(t *testing.T) {
	is := is.New(t)
	app := vurb.New(append(vurbotel.Options(), vurb.WithName("docs"))...)
	vurb.Query(app, "docs.search", func(_ context.Context, in searchIn) (string, error) { return in.Query, nil })

	spans := tracetest.NewSpanRecorder()
	reader := sdkmetric.NewManualReader()
	// Left set: the delegates the globals start as cannot be put back,
	// and the package's other tests pass providers of their own.
	otel.SetTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans)))
	otel.SetMeterProvider(sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader)))

	vurbtest.New(t, app).CallText("docs_search", searchIn{Query: "golang"})

	tel := &telemetry{spans: spans, reader: reader}
	tel.span(t, "tools/call docs_search")
	_, ok := tel.collect(t)["mcp.server.operation.duration"]
	is.True(ok)
}
