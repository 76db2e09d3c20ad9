package bench

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
	vurbotel "github.com/vurb-go/vurb/otel"
	"go.opentelemetry.io/otel/metric"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	tracenoop "go.opentelemetry.io/otel/trace/noop"
)

// The cost of OpenTelemetry (issue #16), on the three paths a call takes:
// in process (App.Call), a round trip through the go-sdk (client and
// server over the in-memory transport, a session) and a sessionless HTTP
// request of revision 2026-07-28 on loopback (the fast lane). On each, the
// contenders are
//
//   - off: no vurbotel;
//   - bare-mw: no vurbotel, a request middleware that only calls next: what
//     any request middleware costs (the fast lane then builds the go-sdk's
//     request), so that noop minus bare-mw is vurbotel's own share;
//   - noop: vurbotel with OpenTelemetry's no-op tracer and meter
//     providers (what an app pays with the global providers unset);
//   - sdk: vurbotel with the SDK's providers, every span sampled and
//     handed to a batch span processor whose exporter discards (the
//     export, on the processor's own goroutine, is not on the call's
//     path), metrics aggregated by the SDK (a manual reader, never
//     collected: aggregation is what a call pays);
//   - sdk+span: sdk, plus a middleware that starts one child span around
//     the handler: what each child span (validation, middleware, handler)
//     would add.
//
// Every request carries a traceparent in its _meta, as a traced client
// sends it.

// otelContender is one way to instrument the app.
type otelContender struct {
	name    string
	options func(tb testing.TB) ([]vurb.Option, []vurb.Middleware)
}

var otelContenders = []otelContender{
	{"off", func(testing.TB) ([]vurb.Option, []vurb.Middleware) { return nil, nil }},
	{"bare-mw", func(testing.TB) ([]vurb.Option, []vurb.Middleware) {
		return []vurb.Option{vurb.WithRequestMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler { return next })}, nil
	}},
	{"noop", func(testing.TB) ([]vurb.Option, []vurb.Middleware) {
		return vurbotel.Options(vurbotel.WithTracerProvider(tracenoop.NewTracerProvider()),
			vurbotel.WithMeterProvider(metricnoop.NewMeterProvider())), nil
	}},
	{"sdk", func(tb testing.TB) ([]vurb.Option, []vurb.Middleware) {
		tp, mp := sdkProviders(tb)
		return vurbotel.Options(vurbotel.WithTracerProvider(tp), vurbotel.WithMeterProvider(mp)), nil
	}},
	{"sdk+span", func(tb testing.TB) ([]vurb.Option, []vurb.Middleware) {
		tp, mp := sdkProviders(tb)
		return vurbotel.Options(vurbotel.WithTracerProvider(tp), vurbotel.WithMeterProvider(mp)),
			[]vurb.Middleware{childSpan(tp.Tracer("bench"))}
	}},
}

// sdkProviders are the SDK's tracer and meter providers as a deployment
// configures them, with an exporter that discards.
func sdkProviders(tb testing.TB) (trace.TracerProvider, metric.MeterProvider) {
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(discardSpans{}), sdktrace.WithSampler(sdktrace.AlwaysSample()))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))
	tb.Cleanup(func() {
		_ = tp.Shutdown(context.Background())
		_ = mp.Shutdown(context.Background())
	})
	return tp, mp
}

// discardSpans is a span exporter that drops what it is given.
type discardSpans struct{}

func (discardSpans) ExportSpans(context.Context, []sdktrace.ReadOnlySpan) error { return nil }
func (discardSpans) Shutdown(context.Context) error                             { return nil }

// childSpan is a middleware that wraps the rest of the call in a span.
func childSpan(tracer trace.Tracer) vurb.Middleware {
	return func(next vurb.Handler) vurb.Handler {
		return func(ctx context.Context, c *vurb.Call) (*mcp.CallToolResult, error) {
			ctx, span := tracer.Start(ctx, "handler")
			defer span.End()
			return next(ctx, c)
		}
	}
}

// traceparent is what a traced client puts in _meta.
const traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"

// otelApp is the bench app (docs.search) under c's instrumentation.
func otelApp(tb testing.TB, c otelContender) *vurb.App {
	opts, mw := c.options(tb)
	app := vurb.New(append(opts, vurb.WithName("bench"), vurb.WithVersion("1.0.0"), vurb.WithLogger(discard))...)
	app.Use(mw...)
	vurb.Query(app, "docs.search", search).Describe("Search the documents")
	return app
}

// otelPaths are the three paths, each making a call function for an app.
var otelPaths = []struct {
	name  string
	setup func(tb testing.TB, app *vurb.App) func() error
}{
	{"in-process", func(tb testing.TB, app *vurb.App) func() error {
		ctx := context.Background()
		return func() error {
			res, err := app.Call(ctx, peerTool, searchArgs)
			if err == nil && res.IsError {
				err = fmt.Errorf("tool error: %s", resultText(res))
			}
			return err
		}
	}},
	{"memory", func(tb testing.TB, app *vurb.App) func() error {
		call, closeFn := connectGoSDKMeta(tb, app.NewServer(), mcp.Meta{"traceparent": traceparent})
		tb.Cleanup(closeFn)
		ctx := context.Background()
		return func() error { _, err := call(ctx); return err }
	}},
	{"http-2026", func(tb testing.TB, app *vurb.App) func() error {
		return sessionlessCall(tb, app)
	}},
}

// connectGoSDKMeta is connectGoSDK with meta in every call's _meta.
func connectGoSDKMeta(tb testing.TB, server *mcp.Server, meta mcp.Meta) (func(context.Context) (string, error), func()) {
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		tb.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench-client", Version: "1.0.0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		tb.Fatal(err)
	}
	params := &mcp.CallToolParams{Name: peerTool, Arguments: searchArgs, Meta: meta}
	return func(ctx context.Context) (string, error) {
		res, err := cs.CallTool(ctx, params)
		if err != nil {
			return "", err
		}
		if res.IsError {
			return "", fmt.Errorf("tool error: %s", resultText(res))
		}
		return resultText(res), nil
	}, func() { cs.Close(); ss.Wait() }
}

// sessionlessCall serves app on loopback and returns a function that
// sends one 2026-07-28 tools/call through net/http and checks the answer.
func sessionlessCall(tb testing.TB, app *vurb.App) func() error {
	srv := httptest.NewServer(app.HTTPHandler())
	tb.Cleanup(srv.Close)
	body := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + peerTool + `","arguments":` + string(searchArgs) +
		`,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"traceparent":"` + traceparent + `"}}}`)
	client := srv.Client()
	want := []byte(`"text":"` + wantText + `"`)
	return func() error {
		req, err := http.NewRequest(http.MethodPost, srv.URL+"/mcp", bytes.NewReader(body))
		if err != nil {
			return err
		}
		req.Header = http.Header{
			"Content-Type":         {"application/json"},
			"Accept":               {"application/json, text/event-stream"},
			"Mcp-Protocol-Version": {"2026-07-28"},
			"Mcp-Method":           {"tools/call"},
			"Mcp-Name":             {peerTool},
		}
		res, err := client.Do(req)
		if err != nil {
			return err
		}
		data, err := io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil {
			return err
		}
		if res.StatusCode != http.StatusOK || !bytes.Contains(data, want) {
			return fmt.Errorf("HTTP %d: %s", res.StatusCode, data)
		}
		return nil
	}
}

// BenchmarkOTel times each contender on each path alone, for its
// allocations; BenchmarkOTelPaired has the ratios to quote.
func BenchmarkOTel(b *testing.B) {
	for _, path := range otelPaths {
		for _, c := range otelContenders {
			b.Run("path="+path.name+"/otel="+c.name, func(b *testing.B) {
				call := path.setup(b, otelApp(b, c))
				if err := call(); err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				for b.Loop() {
					if err := call(); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkOTelPaired interleaves the contenders of each path, a batch of
// calls of each per iteration in rotating order, and reports ns per call
// of each and their ratios to off.
func BenchmarkOTelPaired(b *testing.B) {
	for _, path := range otelPaths {
		b.Run("path="+path.name, func(b *testing.B) {
			batch := 1
			if path.name == "in-process" {
				batch = 32 // amortise the clock read over calls of ~1 µs
			}
			calls := make([]func() error, len(otelContenders))
			names := make([]string, len(otelContenders))
			for i, c := range otelContenders {
				calls[i], names[i] = path.setup(b, otelApp(b, c)), c.name
				if err := calls[i](); err != nil {
					b.Fatalf("%s: %v", c.name, err)
				}
			}
			// Wall time and the process's CPU time (user and system, every
			// goroutine: the client's, the server's, the collector's and the
			// span processor's) of each contender's batches. On a shared
			// machine whose other work steals the CPUs, the CPU time is the
			// steadier figure: time spent waiting for a CPU is not in it.
			totals := make([]time.Duration, len(calls))
			cpus := make([]time.Duration, len(calls))
			b.ReportAllocs()
			n := 0
			for b.Loop() {
				for k := range calls {
					i := (n + k) % len(calls)
					start, cpu := time.Now(), selfCPU()
					for range batch {
						if err := calls[i](); err != nil {
							b.Fatal(err)
						}
					}
					totals[i] += time.Since(start)
					cpus[i] += selfCPU() - cpu
				}
				n++
			}
			if n == 0 {
				return
			}
			per := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / float64(n*batch) }
			for i, name := range names {
				b.ReportMetric(per(totals[i]), name+"-ns/op")
				b.ReportMetric(per(cpus[i]), name+"-cpu-ns/op")
			}
			for i := 1; i < len(names); i++ {
				b.ReportMetric(float64(totals[i])/float64(totals[0]), names[i]+"/off")
				b.ReportMetric(per(totals[i]-totals[0]), names[i]+"-added-ns")
				b.ReportMetric(per(cpus[i]-cpus[0]), names[i]+"-added-cpu-ns")
			}
		})
	}
}
