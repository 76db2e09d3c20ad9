package vurbotel_test

import (
	"context"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb/vurbtest"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
)

func TestOperationDuration(t *testing.T) {
	is := is.New(t)
	tel := newTelemetry(t)
	c := vurbtest.New(t, newApp(tel))

	c.CallText("docs_search", searchIn{Query: "a"})
	c.CallText("docs_search", searchIn{Query: "b"})
	c.CallError("docs_fail", nil)
	c.Tools()
	tel.span(t, "tools/list") // the last request has ended

	m := tel.collect(t)
	duration := m["mcp.server.operation.duration"]
	is.Equal(duration.Unit, "s")
	h := duration.Data.(metricdata.Histogram[float64])
	counts := map[string]uint64{}
	for _, p := range h.DataPoints {
		is.Equal(p.Bounds, []float64{0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300})
		counts[pointKey(p.Attributes)] += p.Count
	}
	// One point per request: the histogram's count is the request count,
	// by method, tool, action and error type.
	is.Equal(counts["tools/call docs_search docs.search "], uint64(2))
	is.Equal(counts["tools/call docs_fail docs.fail handler"], uint64(1))
	is.Equal(counts["tools/list   "], uint64(1))
	is.Equal(counts["initialize   "], uint64(1))

	for _, p := range h.DataPoints {
		_, hasSession := p.Attributes.Value("mcp.session.id")
		is.True(!hasSession) // unbounded: spans only
		v, _ := p.Attributes.Value("mcp.protocol.version")
		is.Equal(v.AsString(), vurbtest.DefaultProtocol)
	}

	active := m["vurb.server.active_requests"]
	is.Equal(active.Unit, "{request}")
	sum := active.Data.(metricdata.Sum[int64])
	is.True(!sum.IsMonotonic)
	for _, p := range sum.DataPoints {
		is.Equal(p.Value, int64(0)) // every request has ended
	}
}

func TestActiveRequestsCountsTheCallInFlight(t *testing.T) {
	is := is.New(t)
	tel := newTelemetry(t)
	running, release := make(chan struct{}), make(chan struct{})
	app := newApp(tel)
	c := vurbtest.New(t, app)
	tel.hold = func(ctx context.Context) { running <- struct{}{}; <-release }
	done := make(chan struct{})
	go func() { defer close(done); c.CallText("docs_search", searchIn{Query: "hold"}) }()
	<-running

	inFlight := int64(0)
	for _, p := range tel.collect(t)["vurb.server.active_requests"].Data.(metricdata.Sum[int64]).DataPoints {
		if v, _ := p.Attributes.Value("gen_ai.tool.name"); v.AsString() == "docs_search" {
			inFlight += p.Value
		}
	}
	is.Equal(inFlight, int64(1))
	close(release)
	<-done
}

func TestSessions(t *testing.T) {
	is := is.New(t)
	tel := newTelemetry(t)
	c := vurbtest.New(t, newApp(tel))
	tel.span(t, "initialize")

	m := tel.collect(t)
	open := m["vurb.server.active_sessions"].Data.(metricdata.Sum[int64])
	is.Equal(len(open.DataPoints), 1)
	is.Equal(open.DataPoints[0].Value, int64(1))

	is.NoErr(c.Session().Close())
	deadline := time.Now().Add(5 * time.Second)
	for {
		m = tel.collect(t)
		if d, ok := m["mcp.server.session.duration"]; ok {
			h := d.Data.(metricdata.Histogram[float64])
			is.Equal(d.Unit, "s")
			is.Equal(h.DataPoints[0].Count, uint64(1))
			v, _ := h.DataPoints[0].Attributes.Value("mcp.protocol.version")
			is.Equal(v.AsString(), vurbtest.DefaultProtocol)
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no mcp.server.session.duration after the session closed")
		}
		time.Sleep(5 * time.Millisecond)
	}
	is.Equal(m["vurb.server.active_sessions"].Data.(metricdata.Sum[int64]).DataPoints[0].Value, int64(0))
}

// pointKey is "method tool action error.type".
func pointKey(set attribute.Set) string {
	get := func(k string) string { v, _ := set.Value(attribute.Key(k)); return v.AsString() }
	return get("mcp.method.name") + " " + get("gen_ai.tool.name") + " " + get("vurb.action.key") + " " + get("error.type")
}
