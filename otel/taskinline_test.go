package vurbotel_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/store"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
)

// A call that runs without the task the store refused is counted, by
// tool, in vurb.server.task.inline.
func TestTaskInlineIsCounted(t *testing.T) {
	is := is.New(t)
	tel := newTelemetry(t)
	app := vurb.New(append(tel.options(), vurb.WithTasks(vurb.TaskConfig{Store: store.NewMemoryTasks(100, store.WithPerCaller(1, 0))}))...)
	release := make(chan struct{})
	defer close(release)
	vurb.Query(app, "reports.build", func(ctx context.Context, _ struct{}) (string, error) {
		if _, ok := vurb.TaskID(ctx); ok {
			<-release
		}
		return "built", nil
	}).Task()
	h := app.HTTPHandler()
	call := func() {
		body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"reports_build","arguments":{},` +
			`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}}}`
		req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
		req.Header.Set("Mcp-Method", "tools/call")
		req.Header.Set("Mcp-Name", "reports_build")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		is.Equal(w.Code, http.StatusOK)
	}
	call() // a task, holding the caller's one place
	call() // inline
	points := tel.collect(t)["vurb.server.task.inline"].Data.(metricdata.Sum[int64]).DataPoints
	is.Equal(len(points), 1)
	is.Equal(points[0].Value, int64(1))
	tool, _ := points[0].Attributes.Value("gen_ai.tool.name")
	is.Equal(tool.AsString(), "reports_build")
}
