package vurbotel_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"sync"
	"testing"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
	vurbotel "github.com/vurb-go/vurb/otel"
	"github.com/vurb-go/vurb/vurbtest"
)

// lockedBuffer is a bytes.Buffer a logger can write from several
// goroutines.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) lines() []map[string]any {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []map[string]any
	for _, line := range bytes.Split(bytes.TrimSpace(b.buf.Bytes()), []byte("\n")) {
		var m map[string]any
		if json.Unmarshal(line, &m) == nil {
			out = append(out, m)
		}
	}
	return out
}

func TestLogsCarryTheTraceAndSpanIDs(t *testing.T) {
	is := is.New(t)
	tel := newTelemetry(t)
	tel.extra = []vurbotel.Option{vurbotel.WithClientTrace(vurbotel.TrustClientTrace)}
	var logs lockedBuffer
	app := newApp(tel, vurb.WithLogger(slog.New(slog.NewJSONHandler(&logs, nil))))
	c := vurbtest.New(t, app)

	c.CallText("docs_search", searchIn{Query: "golang"}, vurbtest.Meta(mcp.Meta{"traceparent": metaParent}))
	span := tel.span(t, "tools/call docs_search")

	var searched map[string]any
	for _, l := range logs.lines() {
		if l["msg"] == "searched" {
			searched = l
		}
	}
	is.True(searched != nil)
	is.Equal(searched["trace_id"], clientTrace) // the client's trace
	is.Equal(searched["span_id"], span.SpanContext().SpanID().String())
	is.Equal(searched["request_id"], attrs(span.Attributes())["vurb.request.id"])
}

func TestLogAttrsOutsideASpanAreNone(t *testing.T) {
	is.New(t).Equal(len(vurbotel.LogAttrs(context.Background())), 0)
}
