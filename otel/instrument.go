package vurbotel

import (
	"context"
	"log/slog"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/propagation"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/trace"
)

// Options returns the vurb options that instrument an app: pass them to
// vurb.New with the app's others.
//
//	app := vurb.New(append(vurbotel.Options(), vurb.WithName("projects"))...)
//
// They install a request middleware (a span and the metrics for every MCP
// request any server of the app receives, over stdio, HTTP sessions and
// sessionless HTTP alike), an observer (vurb's outcome of each tool call
// on its span and metrics) and a log context (trace_id and span_id on
// every vurb.Logger line). Options composes with the app's own observers
// and middleware.
//
// An instrument the meter provider refuses is reported through
// otel.Handle, as OpenTelemetry's own instrumentations do, and left out;
// the rest works.
func Options(opts ...Option) []vurb.Option {
	in := newInstrumentation(newConfig(opts))
	return []vurb.Option{
		vurb.WithRequestMiddleware(in.middleware),
		vurb.WithObserver(in.observe),
		vurb.WithLogContext(logContext),
	}
}

// instrumentation holds what the middleware and the observer share.
type instrumentation struct {
	cfg        config
	tracer     trace.Tracer
	propagator propagation.TextMapPropagator
	metrics    *instruments
	sessions   sessions
}

func newInstrumentation(cfg config) *instrumentation {
	in := &instrumentation{
		cfg:        cfg,
		tracer:     cfg.tracerProvider.Tracer(instrumentationName, trace.WithInstrumentationVersion(version)),
		propagator: cfg.propagator,
	}
	m, err := newInstruments(cfg.meterProvider.Meter(instrumentationName, metric.WithInstrumentationVersion(version)))
	if err != nil {
		otel.Handle(err)
		m = noopInstruments()
	}
	in.metrics = m
	in.sessions.metrics = m
	return in
}

// requestState is what the observer learns of a tool call for the
// middleware that started its span: vurb's outcome and the action's key.
// The observer writes it on the call's goroutine before the call answers;
// the middleware reads it once the call has answered.
type requestState struct {
	outcome   vurb.Outcome
	key       string
	requestID string
}

type requestStateKey struct{}

// middleware is the request middleware: one SERVER span per MCP request,
// its duration, and the in-flight count.
func (in *instrumentation) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		start := time.Now()
		info := describe(method, req)
		ctx, links := parent(ctx, in.propagator, req)
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
			active = metric.WithAttributeSet(info.activeAttributes())
			in.metrics.activeRequests.Add(ctx, 1, active)
		}

		res, err := next(ctx, method, req)

		if counting {
			in.metrics.activeRequests.Add(ctx, -1, active)
		}
		end := classify(state.outcome, res, err)
		finishSpan(span, state, end)
		if in.metrics.duration.Enabled(ctx) {
			in.metrics.duration.RecordSet(ctx, time.Since(start).Seconds(), info.metricAttributes(state.key, end.errorType))
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

// observe is the observer: it hands a served tool call's outcome to the
// request that carries it, and records an in-process call (App.Call) as a
// span of its own.
func (in *instrumentation) observe(ctx context.Context, e vurb.Event) {
	if e.Kind != vurb.CallFinished {
		return
	}
	// A call made from inside another call's handler is in-process, even
	// though its ctx carries the served request's state.
	if vurb.CallFrom(ctx) == nil {
		if state, ok := ctx.Value(requestStateKey{}).(*requestState); ok {
			state.outcome, state.key, state.requestID = e.Outcome, e.Key, e.RequestID
			return
		}
	}
	in.inProcess(ctx, e)
}

// inProcess records an App.Call, which is no MCP request and passes
// through no request middleware, as the GenAI conventions' execute_tool
// span: INTERNAL, named "execute_tool {gen_ai.tool.name}", a child of the
// caller's span. vurb reports the call when it has ended, so the span is
// made then, with the call's own start and end times: the handler's spans
// are its siblings under the caller's span, not its children.
func (in *instrumentation) inProcess(ctx context.Context, e vurb.Event) {
	_, span := in.tracer.Start(ctx, executeTool+" "+e.Name,
		trace.WithSpanKind(trace.SpanKindInternal),
		trace.WithTimestamp(e.Time.Add(-e.Duration)),
		trace.WithAttributes(semconv.GenAIOperationNameKey.String(executeTool), semconv.GenAIToolNameKey.String(e.Name)))
	finishSpan(span, &requestState{outcome: e.Outcome, key: e.Key, requestID: e.RequestID},
		classify(e.Outcome, nil, nil), trace.WithTimestamp(e.Time))
}

// logContext gives each call's logger the trace and span ids of its ctx,
// so that log lines join their trace.
func logContext(ctx context.Context) []slog.Attr {
	sc := trace.SpanContextFromContext(ctx)
	if !sc.IsValid() {
		return nil
	}
	return []slog.Attr{slog.String("trace_id", sc.TraceID().String()), slog.String("span_id", sc.SpanID().String())}
}
