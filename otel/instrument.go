package vurbotel

import (
	"sync"

	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/observe"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/propagation"
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
// every vurb.Logger line). Options composes with the app's own observers,
// request middleware and log contexts.
//
// If the meter provider refuses vurbotel's instruments, the error goes to
// otel.Handle, as OpenTelemetry's own instrumentations do, and the app runs
// with spans and without metrics.
func Options(opts ...Option) []vurb.Option {
	in := newInstrumentation(newConfig(opts))
	return []vurb.Option{
		vurb.WithRequestMiddleware(in.middleware),
		vurb.WithObserver(in.observe),
		vurb.WithLogContext(LogAttrs),
	}
}

// instrumentation holds what the middleware and the observer share.
type instrumentation struct {
	cfg        config
	tracer     trace.Tracer
	propagator propagation.TextMapPropagator
	metrics    *instruments
	sessions   sessions
	sets       setCache
	names      catalog
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
// the middleware reads it once the call has answered. A call that
// outlives its request (a task's, which runs on after the request
// answered with the task) reports into a state the middleware has taken
// already: what it learns then is dropped, under the lock.
type requestState struct {
	mu        sync.Mutex
	taken     bool
	outcome   observe.Outcome
	key       string
	requestID string
}

// learn records a call's outcome, unless the request has ended.
func (s *requestState) learn(outcome observe.Outcome, key, requestID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.taken {
		s.outcome, s.key, s.requestID = outcome, key, requestID
	}
}

// take returns what was learnt, for the request's end; nothing learnt
// later reaches it.
func (s *requestState) take() *requestState {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.taken = true
	return &requestState{outcome: s.outcome, key: s.key, requestID: s.requestID}
}

type requestStateKey struct{}
