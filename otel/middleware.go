package vurbotel

import (
	"context"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/trace"
)

// middleware is the request middleware: one SERVER span per MCP request,
// its duration, and the in-flight count.
func (in *instrumentation) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		start := time.Now()
		info := in.describe(method, req)
		ctx, links := parent(ctx, in.propagator, req, in.cfg.clientTrace)
		ctx, span := in.tracer.Start(ctx, info.spanName(in.cfg.resourceURI),
			trace.WithSpanKind(trace.SpanKindServer),
			trace.WithTimestamp(start),
			trace.WithAttributes(info.spanAttributes()...),
			trace.WithLinks(links...))
		state := &requestState{}
		ctx = context.WithValue(ctx, requestStateKey{}, state)
		// Attribute sets are made only for a meter that records: with the
		// no-op provider a request makes none.
		counting := in.metrics.activeRequests.Enabled(ctx)
		var active metric.AddOption
		if counting {
			active = metric.WithAttributeSet(in.sets.activeSet(&info))
			in.metrics.activeRequests.Add(ctx, 1, active)
		}

		res, err := next(ctx, method, req)

		if counting {
			in.metrics.activeRequests.Add(ctx, -1, active)
		}
		if kv := in.settle(&info, res, err); kv != nil && span.IsRecording() {
			span.SetName(info.spanName(in.cfg.resourceURI))
			span.SetAttributes(kv...)
		}
		learnt := state.take()
		end := classify(learnt.outcome, res, err)
		finishSpan(span, learnt, end)
		if in.metrics.duration.Enabled(ctx) {
			in.metrics.duration.RecordSet(ctx, time.Since(start).Seconds(), in.sets.metricSet(&info, learnt.key, end.errorType))
		}
		if method == methodInitialize && err == nil {
			in.sessions.opened(req.GetSession(), info.protocol)
		}
		return res, err
	}
}

// finishSpan records how the request ended and ends the span.
func finishSpan(span trace.Span, state *requestState, end ending, opts ...trace.SpanEndOption) {
	if span.IsRecording() {
		attrs := make([]attribute.KeyValue, 0, 5)
		if state.key != "" {
			attrs = append(attrs, actionKey.String(state.key))
		}
		if state.requestID != "" {
			attrs = append(attrs, requestIDKey.String(state.requestID))
		}
		if state.outcome != "" {
			attrs = append(attrs, outcomeKey.String(string(state.outcome)))
		}
		if end.errorType != "" {
			attrs = append(attrs, semconv.ErrorTypeKey.String(end.errorType))
		}
		if end.statusCode != "" {
			attrs = append(attrs, semconv.RPCResponseStatusCodeKey.String(end.statusCode))
		}
		span.SetAttributes(attrs...)
		if end.errorType != "" {
			span.SetStatus(codes.Error, end.description)
		}
	}
	span.End(opts...)
}
