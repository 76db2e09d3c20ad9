package vurbotel

import (
	"context"

	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/observe"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/trace"
)

// observe is the observer: it learns the app's tools as vurb compiles
// them (the names recorded, see catalog), hands a served tool call's
// outcome to the request that carries it, and records an in-process call
// (App.Call) as a span of its own.
func (in *instrumentation) observe(ctx context.Context, e observe.Event) {
	if e.Kind == observe.ToolRegistered {
		in.names.register(e.Name)
		return
	}
	if e.Kind == observe.TaskInline {
		in.metrics.taskInline.Add(ctx, 1, metric.WithAttributes(semconv.GenAIToolNameKey.String(in.names.tool(e.Name))))
		return
	}
	if e.Kind == observe.WorkflowMoved {
		in.workflowMoved(ctx, e)
		return
	}
	if e.Kind != observe.CallFinished {
		return
	}
	// A call made from inside another call's handler is in-process, even
	// though its ctx carries the served request's state.
	if vurb.CallFrom(ctx) == nil {
		if state, ok := ctx.Value(requestStateKey{}).(*requestState); ok {
			state.learn(e.Outcome, e.Key, e.RequestID)
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
func (in *instrumentation) inProcess(ctx context.Context, e observe.Event) {
	_, span := in.tracer.Start(ctx, executeTool+" "+e.Name,
		trace.WithSpanKind(trace.SpanKindInternal),
		trace.WithTimestamp(e.Time.Add(-e.Duration)),
		trace.WithAttributes(semconv.GenAIOperationNameKey.String(executeTool), semconv.GenAIToolNameKey.String(e.Name)))
	finishSpan(span, &requestState{outcome: e.Outcome, key: e.Key, requestID: e.RequestID},
		classify(e.Outcome, nil, nil), trace.WithTimestamp(e.Time))
}

// workflowMoved records a workflow's move: counted, and an event on the
// span of the request that made it (the served tool call's, or the
// caller's in process).
func (in *instrumentation) workflowMoved(ctx context.Context, e observe.Event) {
	attrs := []attribute.KeyValue{workflowNameKey.String(e.Workflow), workflowFromKey.String(e.From), workflowToKey.String(e.To)}
	in.metrics.workflowMoves.Add(ctx, 1, metric.WithAttributes(attrs...))
	trace.SpanFromContext(ctx).AddEvent(workflowMovedEvent, trace.WithTimestamp(e.Time),
		trace.WithAttributes(append(attrs, semconv.GenAIToolNameKey.String(e.Name))...))
}
