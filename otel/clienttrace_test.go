package vurbotel_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	vurbotel "github.com/vurb-go/vurb/otel"
	"github.com/vurb-go/vurb/vurbtest"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// A server that samples nothing records nothing, whatever trace context a
// client sends, unless it trusts its clients: a sampled traceparent in
// _meta made the server record the call, its handler's span included,
// under the client's trace id (what TrustClientTrace still does).
func TestClientTraceWithANeverSampler(t *testing.T) {
	for _, c := range []struct {
		name     string
		opts     []vurbotel.Option
		recorded bool
	}{
		{"default", nil, false},
		{"link", []vurbotel.Option{vurbotel.WithClientTrace(vurbotel.LinkClientTrace)}, false},
		{"ignore", []vurbotel.Option{vurbotel.WithClientTrace(vurbotel.IgnoreClientTrace)}, false},
		{"trust", []vurbotel.Option{vurbotel.WithClientTrace(vurbotel.TrustClientTrace)}, true},
	} {
		for _, mode := range modes() {
			t.Run(c.name+"/"+mode.name, func(t *testing.T) {
				is := is.New(t)
				tel := newTelemetry(t)
				tel.tp = sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(tel.spans),
					sdktrace.WithSampler(sdktrace.ParentBased(sdktrace.NeverSample())))
				t.Cleanup(func() { _ = tel.tp.Shutdown(context.Background()) })
				tel.extra = c.opts
				cl := vurbtest.New(t, newApp(tel), mode.opts...)

				cl.CallText("docs_search", searchIn{Query: "golang"}, vurbtest.Meta(mcp.Meta{"traceparent": metaParent}))

				// A span is started, and so recorded, before the handler
				// runs, hence before the call answers.
				underClient := 0
				for _, s := range tel.spans.Started() {
					is.Equal(s.SpanContext().TraceID().String(), clientTrace) // none of the server's own
					underClient++
				}
				if c.recorded {
					is.Equal(underClient, 2) // the call's and its handler's
				} else {
					is.Equal(underClient, 0)
				}
			})
		}
	}
}

// By default the call's span is a root of the server's, linked to the
// span contexts the client sent, in _meta and in the HTTP header; the
// handler's spans and log lines are in the server's trace.
func TestClientTraceIsLinkedByDefault(t *testing.T) {
	for _, mode := range httpModes() {
		t.Run(mode.name, func(t *testing.T) {
			is := is.New(t)
			tel := newTelemetry(t)
			opts := append(mode.opts, vurbtest.Identity{Header: http.Header{"Traceparent": {headerParent}}})
			c := vurbtest.New(t, newApp(tel), opts...)

			c.CallText("docs_search", searchIn{Query: "golang"}, vurbtest.Meta(mcp.Meta{"traceparent": metaParent}))

			span := tel.span(t, "tools/call docs_search")
			is.True(!span.Parent().IsValid()) // a root
			id := span.SpanContext().TraceID().String()
			is.True(id != clientTrace && id != headerTrace)
			is.Equal(len(span.Links()), 2)
			is.Equal(ids(span.Links()[0].SpanContext), [2]string{clientTrace, clientSpan})
			is.Equal(ids(span.Links()[1].SpanContext), [2]string{headerTrace, headerSpan})
			children := tel.children(span)
			is.Equal(len(children), 1)
			is.Equal(children[0].SpanContext().TraceID().String(), id)
		})
	}
}
