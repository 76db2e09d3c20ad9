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
	clientTrace    ClientTrace
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

// ClientTrace says what the trace context a client sends (traceparent,
// tracestate and baggage, in a request's _meta as SEP-414 puts them, or
// in its HTTP headers) does to the request's span. The client chooses
// every byte of it: made the span's parent, its sampled flag makes a
// ParentBased sampler (OpenTelemetry's default) record the span however
// little the server samples, the span joins a trace id of the client's
// choosing, and its baggage reaches the handlers and what they call.
type ClientTrace int

const (
	// LinkClientTrace, the default, starts the span in the context the
	// request arrived in (a new root, unless an HTTP middleware such as
	// otelhttp started a span), linked to each span context the client
	// sent: the server's sampler decides and the trace ids are the
	// server's, while a trace viewer still leads from the client's trace
	// to the server's. The client's baggage is not read. It is the
	// default because an MCP server over HTTP answers clients it does not
	// control, as otelhttp's WithPublicEndpoint does for a public one.
	LinkClientTrace ClientTrace = iota
	// TrustClientTrace makes the client's span context the span's parent
	// and its baggage the handlers', as the conventions for MCP describe:
	// one trace from the agent's step to the handler's queries. Choose it
	// when every client is yours: a stdio server its client launched, a
	// server behind a gateway that sets or checks the trace context. The
	// parent is the trace context in _meta, else the HTTP request's
	// traceparent header, else the context the request arrived in; when
	// _meta wins, a different trace context from the header or the
	// arrival context is kept as a link.
	TrustClientTrace
	// IgnoreClientTrace reads none of it: the span starts in the context
	// the request arrived in, unlinked.
	IgnoreClientTrace
)

// WithClientTrace sets how the trace context a client sends is used
// (default LinkClientTrace): see ClientTrace for what each choice lets a
// client do.
func WithClientTrace(t ClientTrace) Option {
	return func(c *config) { c.clientTrace = t }
}
