package main

import (
	"context"
	"errors"
	"os"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetrichttp"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
	"go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
)

// setupTelemetry installs the global tracer and meter providers, exporting
// over OTLP/HTTP where the standard variables say:
// OTEL_EXPORTER_OTLP_ENDPOINT (or the per-signal
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT and ..._METRICS_ENDPOINT), and
// OTEL_EXPORTER_OTLP_HEADERS for a backend that wants a key. Without an
// endpoint it installs nothing: the global providers stay no-ops, and a
// call pays a few hundred nanoseconds for the instrumentation.
// OTEL_TRACES_EXPORTER=none or OTEL_METRICS_EXPORTER=none turns a signal
// off (for a backend that takes only traces, such as Jaeger).
// OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES override the resource
// (service.name "quickstart").
//
// The returned shutdown flushes what is buffered; call it before exiting.
func setupTelemetry(ctx context.Context) (shutdown func(context.Context) error, err error) {
	nothing := func(context.Context) error { return nil }
	if !configured("TRACES") && !configured("METRICS") {
		return nothing, nil
	}
	res, err := resource.New(ctx,
		resource.WithAttributes(semconv.ServiceName("quickstart"), semconv.ServiceVersion("1.0.0")),
		resource.WithTelemetrySDK(),
		resource.WithFromEnv()) // the variables win
	if err != nil {
		return nothing, err
	}
	var shutdowns []func(context.Context) error
	if configured("TRACES") && os.Getenv("OTEL_TRACES_EXPORTER") != "none" {
		exporter, err := otlptracehttp.New(ctx)
		if err != nil {
			return nothing, err
		}
		tp := trace.NewTracerProvider(trace.WithBatcher(exporter), trace.WithResource(res))
		otel.SetTracerProvider(tp)
		shutdowns = append(shutdowns, tp.Shutdown)
	}
	if configured("METRICS") && os.Getenv("OTEL_METRICS_EXPORTER") != "none" {
		exporter, err := otlpmetrichttp.New(ctx)
		if err != nil {
			return nothing, err
		}
		mp := metric.NewMeterProvider(metric.WithReader(metric.NewPeriodicReader(exporter)), metric.WithResource(res))
		otel.SetMeterProvider(mp)
		shutdowns = append(shutdowns, mp.Shutdown)
	}
	return func(ctx context.Context) error {
		var errs []error
		for _, s := range shutdowns {
			errs = append(errs, s(ctx))
		}
		return errors.Join(errs...)
	}, nil
}

// configured reports whether an OTLP endpoint is given for signal
// ("TRACES", "METRICS"), in general or for it alone.
func configured(signal string) bool {
	return os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" || os.Getenv("OTEL_EXPORTER_OTLP_"+signal+"_ENDPOINT") != ""
}
