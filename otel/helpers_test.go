package vurbotel_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/vurb-go/vurb"
	vurbotel "github.com/vurb-go/vurb/otel"
	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

// telemetry is an OpenTelemetry SDK whose spans and metrics a test reads
// back: the SDK's span recorder and manual metric reader.
type telemetry struct {
	spans  *tracetest.SpanRecorder
	reader *sdkmetric.ManualReader
	tp     *sdktrace.TracerProvider
	mp     *sdkmetric.MeterProvider
	// hold, when set, runs in docs.search's handler: a test holds a call
	// in flight with it.
	hold func(ctx context.Context)
	// extra are vurbotel options every app of the test gets.
	extra []vurbotel.Option
}

func newTelemetry(t *testing.T) *telemetry {
	tel := &telemetry{spans: tracetest.NewSpanRecorder(), reader: sdkmetric.NewManualReader()}
	tel.tp = sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(tel.spans))
	tel.mp = sdkmetric.NewMeterProvider(sdkmetric.WithReader(tel.reader))
	t.Cleanup(func() {
		_ = tel.tp.Shutdown(context.Background())
		_ = tel.mp.Shutdown(context.Background())
	})
	return tel
}

// options are vurbotel's options on this SDK.
func (tel *telemetry) options(opts ...vurbotel.Option) []vurb.Option {
	base := []vurbotel.Option{vurbotel.WithTracerProvider(tel.tp), vurbotel.WithMeterProvider(tel.mp)}
	return vurbotel.Options(append(append(base, tel.extra...), opts...)...)
}

// span waits for the ended span called name: a server span ends after
// its answer is written, so the client can have it first.
func (tel *telemetry) span(t *testing.T, name string) sdktrace.ReadOnlySpan {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		for _, s := range tel.spans.Ended() {
			if s.Name() == name {
				return s
			}
		}
		if time.Now().After(deadline) {
			var names []string
			for _, s := range tel.spans.Ended() {
				names = append(names, s.Name())
			}
			t.Fatalf("no span %q ended; ended: %q", name, names)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// spansNamed waits for n ended spans called name.
func (tel *telemetry) spansNamed(t *testing.T, name string, n int) []sdktrace.ReadOnlySpan {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		var out []sdktrace.ReadOnlySpan
		for _, s := range tel.spans.Ended() {
			if s.Name() == name {
				out = append(out, s)
			}
		}
		if len(out) >= n {
			return out
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d spans %q ended; want %d", len(out), name, n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// children are the ended spans whose parent is span.
func (tel *telemetry) children(span sdktrace.ReadOnlySpan) []sdktrace.ReadOnlySpan {
	var out []sdktrace.ReadOnlySpan
	for _, s := range tel.spans.Ended() {
		if s.Parent().SpanID() == span.SpanContext().SpanID() {
			out = append(out, s)
		}
	}
	return out
}

// collect reads the metrics recorded so far.
func (tel *telemetry) collect(t *testing.T) map[string]metricdata.Metrics {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := tel.reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	out := map[string]metricdata.Metrics{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			out[m.Name] = m
		}
	}
	return out
}

// attrs is a set of attributes as text, for comparison.
func attrs(kvs []attribute.KeyValue) map[string]string {
	m := make(map[string]string, len(kvs))
	for _, kv := range kvs {
		m[string(kv.Key)] = kv.Value.Emit()
	}
	return m
}

// searchIn is the input of docs.search.
type searchIn struct {
	Query string `json:"query" validate:"required" description:"Search text"`
}

// errIndexOffline is what docs.fail returns.
var errIndexOffline = errors.New("index offline")

// newApp is an app with an action per way a call can end, a prompt and a
// resource. Its handlers start a span of their own (db.query) from their
// ctx and log a line, so tests can see where both land.
func newApp(tel *telemetry, opts ...vurb.Option) *vurb.App {
	app := vurb.New(append(tel.options(), append([]vurb.Option{vurb.WithName("docs")}, opts...)...)...)
	db := tel.tp.Tracer("db")
	vurb.Query(app, "docs.search", func(ctx context.Context, in searchIn) (string, error) {
		_, span := db.Start(ctx, "db.query")
		span.End()
		if tel.hold != nil {
			tel.hold(ctx)
		}
		vurb.Logger(ctx).Info("searched", "query", in.Query)
		return in.Query, nil
	}).Describe("Search the docs")
	vurb.Action(app, "docs.fail", func(context.Context, struct{}) (string, error) {
		return "", errIndexOffline
	})
	vurb.Action(app, "docs.boom", func(context.Context, struct{}) (string, error) {
		panic("boom")
	})
	vurb.Action(app, "docs.slow", func(ctx context.Context, _ struct{}) (string, error) {
		<-ctx.Done()
		return "", ctx.Err()
	}).Timeout(20 * time.Millisecond)
	vurb.Prompt(app, "review", func(ctx context.Context, _ struct{}) (string, error) {
		_, span := db.Start(ctx, "db.query")
		span.End()
		return "Review this.", nil
	})
	vurb.Resource(app, "config://app", "config", func(ctx context.Context) (vurb.Contents, error) {
		_, span := db.Start(ctx, "db.query")
		span.End()
		return vurb.Contents{Text: "debug=false"}, nil
	})
	return app
}

// ids are a span context's ids as text.
func ids(sc trace.SpanContext) [2]string {
	return [2]string{sc.TraceID().String(), sc.SpanID().String()}
}
