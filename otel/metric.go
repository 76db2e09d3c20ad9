package vurbotel

import (
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/metric/noop"
	"go.opentelemetry.io/otel/semconv/v1.41.0/mcpconv"
)

// durationBuckets are the bucket boundaries, in seconds, the conventions
// give mcp.server.operation.duration and mcp.server.session.duration.
var durationBuckets = []float64{0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300}

// Names of the instruments the conventions do not define, in vurb's
// namespace; their units are the conventions' annotations.
const (
	activeRequestsName  = "vurb.server.active_requests"
	taskInlineName      = "vurb.server.task.inline"
	taskInlineUnit      = "{call}"
	workflowMovesName   = "vurb.server.workflow.moves"
	workflowMovesUnit   = "{move}"
	activeSessionsName  = "vurb.server.active_sessions"
	activeRequestsUnit  = "{request}"
	activeSessionsUnit  = "{session}"
	instrumentationName = "github.com/vurb-go/vurb/otel"
)

// instruments are the metrics vurbotel records.
type instruments struct {
	// duration is mcp.server.operation.duration: one point per request,
	// so its count is the request count, by method, tool, action and
	// error.type.
	duration mcpconv.ServerOperationDuration
	// sessionDuration is mcp.server.session.duration, recorded when a
	// session ends.
	sessionDuration mcpconv.ServerSessionDuration
	// activeRequests is the number of requests being handled.
	activeRequests metric.Int64UpDownCounter
	// activeSessions is the number of open sessions.
	activeSessions metric.Int64UpDownCounter
	// taskInline counts the calls that ran without the task the store
	// refused them (observe.TaskInline), by tool.
	taskInline metric.Int64Counter
	// workflowMoves counts the workflow instances started and moved
	// (observe.WorkflowMoved), by machine and the states moved between.
	workflowMoves metric.Int64Counter
}

func newInstruments(m metric.Meter) (*instruments, error) {
	var in instruments
	var err error
	if in.duration, err = mcpconv.NewServerOperationDuration(m, metric.WithExplicitBucketBoundaries(durationBuckets...)); err != nil {
		return nil, err
	}
	if in.sessionDuration, err = mcpconv.NewServerSessionDuration(m, metric.WithExplicitBucketBoundaries(durationBuckets...)); err != nil {
		return nil, err
	}
	if in.activeRequests, err = m.Int64UpDownCounter(activeRequestsName, metric.WithUnit(activeRequestsUnit),
		metric.WithDescription("MCP requests being handled.")); err != nil {
		return nil, err
	}
	if in.activeSessions, err = m.Int64UpDownCounter(activeSessionsName, metric.WithUnit(activeSessionsUnit),
		metric.WithDescription("Open MCP sessions.")); err != nil {
		return nil, err
	}
	if in.taskInline, err = m.Int64Counter(taskInlineName, metric.WithUnit(taskInlineUnit),
		metric.WithDescription("Calls that ran without a task because the task store refused one (a caller's share, or the store, full).")); err != nil {
		return nil, err
	}
	if in.workflowMoves, err = m.Int64Counter(workflowMovesName, metric.WithUnit(workflowMovesUnit),
		metric.WithDescription("Workflow instances started and moved from one state to another.")); err != nil {
		return nil, err
	}
	return &in, nil
}

// noopInstruments are instruments that record nothing, for a meter
// provider that refused vurbotel's.
func noopInstruments() *instruments {
	in, _ := newInstruments(noop.NewMeterProvider().Meter(instrumentationName))
	return in
}
