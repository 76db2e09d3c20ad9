package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb/examples/quickstart/projects"
	vurbotel "github.com/vurb-go/vurb/otel"
	"github.com/vurb-go/vurb/vurbtest"
	colmetricpb "go.opentelemetry.io/proto/otlp/collector/metrics/v1"
	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/protobuf/proto"
)

// collector is an OTLP/HTTP endpoint on loopback that keeps the names of
// the spans and metrics it receives, and the service they came from.
type collector struct {
	mu       sync.Mutex
	spans    map[string]bool
	metrics  map[string]bool
	services map[string]bool
}

func (c *collector) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	data, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	switch r.URL.Path {
	case "/v1/traces":
		var req coltracepb.ExportTraceServiceRequest
		if err := proto.Unmarshal(data, &req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		for _, rs := range req.GetResourceSpans() {
			for _, kv := range rs.GetResource().GetAttributes() {
				if kv.GetKey() == "service.name" {
					c.services[kv.GetValue().GetStringValue()] = true
				}
			}
			for _, ss := range rs.GetScopeSpans() {
				for _, s := range ss.GetSpans() {
					c.spans[s.GetName()] = true
				}
			}
		}
		out, _ := proto.Marshal(&coltracepb.ExportTraceServiceResponse{})
		w.Header().Set("Content-Type", "application/x-protobuf")
		_, _ = w.Write(out)
	case "/v1/metrics":
		var req colmetricpb.ExportMetricsServiceRequest
		if err := proto.Unmarshal(data, &req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		for _, rm := range req.GetResourceMetrics() {
			for _, sm := range rm.GetScopeMetrics() {
				for _, m := range sm.GetMetrics() {
					c.metrics[m.GetName()] = true
				}
			}
		}
		out, _ := proto.Marshal(&colmetricpb.ExportMetricsServiceResponse{})
		w.Header().Set("Content-Type", "application/x-protobuf")
		_, _ = w.Write(out)
	default:
		http.NotFound(w, r)
	}
}

// TestExportsToTheEndpointOfTheEnvironment runs the quickstart as main
// does, with OTEL_EXPORTER_OTLP_ENDPOINT naming a collector on loopback,
// and finds its spans and metrics there once the telemetry is shut down.
func TestExportsToTheEndpointOfTheEnvironment(t *testing.T) {
	is := is.New(t)
	col := &collector{spans: map[string]bool{}, metrics: map[string]bool{}, services: map[string]bool{}}
	srv := httptest.NewServer(col)
	defer srv.Close()
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", srv.URL)

	ctx := context.Background()
	shutdown, err := setupTelemetry(ctx)
	is.NoErr(err)
	c := vurbtest.New(t, projects.NewApp(vurbotel.Options()...))
	c.CallText("projects_create", map[string]any{"name": "Apollo"})
	c.Tools()
	is.NoErr(shutdown(ctx)) // flushes

	col.mu.Lock()
	defer col.mu.Unlock()
	is.True(col.spans["tools/call projects_create"])
	is.True(col.spans["tools/list"])
	is.True(col.services["quickstart"])
	is.True(col.metrics["mcp.server.operation.duration"])
}

func TestWithoutAnEndpointNothingIsInstalled(t *testing.T) {
	is := is.New(t)
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "")
	t.Setenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "")
	t.Setenv("OTEL_EXPORTER_OTLP_METRICS_ENDPOINT", "")
	is.True(!configured("TRACES"))
	shutdown, err := setupTelemetry(context.Background())
	is.NoErr(err)
	is.NoErr(shutdown(context.Background()))
}
