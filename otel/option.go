package vurbotel

import (
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// An Option configures the instrumentation Options installs.
type Option func(*config)

// config is what the options set.
type config struct {
	tracerProvider trace.TracerProvider
	meterProvider  metric.MeterProvider
	propagator     propagation.TextMapPropagator
	resourceURI    bool // resources/read spans named after the URI
}

func newConfig(opts []Option) config {
	c := config{}
	for _, o := range opts {
		o(&c)
	}
	if c.tracerProvider == nil {
		c.tracerProvider = otel.GetTracerProvider()
	}
	if c.meterProvider == nil {
		c.meterProvider = otel.GetMeterProvider()
	}
	if c.propagator == nil {
		c.propagator = propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{})
	}
	return c
}

// WithTracerProvider sets where spans go. Default: the global provider,
// otel.GetTracerProvider(), which follows an otel.SetTracerProvider made
// before or after Options.
func WithTracerProvider(tp trace.TracerProvider) Option {
	return func(c *config) { c.tracerProvider = tp }
}

// WithMeterProvider sets where metrics go. Default: the global provider,
// otel.GetMeterProvider(), which follows an otel.SetMeterProvider made
// before or after Options.
func WithMeterProvider(mp metric.MeterProvider) Option {
	return func(c *config) { c.meterProvider = mp }
}

// WithPropagator sets how trace context is read from a request's _meta and
// from its HTTP headers. Default: W3C Trace Context and Baggage, the keys
// SEP-414 reserves in _meta (traceparent, tracestate, baggage), whatever
// the global propagator is: OpenTelemetry's global default propagates
// nothing, and an MCP client that sends trace context sends these.
func WithPropagator(p propagation.TextMapPropagator) Option {
	return func(c *config) { c.propagator = p }
}

// WithResourceURIInSpanName names resources/read spans
// "resources/read {mcp.resource.uri}". The conventions leave it off by
// default: a URI can have unbounded values (one per customer, per file),
// and span names should not. The URI is an attribute either way.
func WithResourceURIInSpanName() Option {
	return func(c *config) { c.resourceURI = true }
}
