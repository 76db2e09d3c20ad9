package vurbotel

import (
	"context"
	"net/http"
	"testing"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel/baggage"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

const (
	metaTraceparent   = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	headerTraceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
)

func TestTrustedParentPrefersMetaAndLinksTheHeader(t *testing.T) {
	p := propagation.TraceContext{}
	tool := func(meta mcp.Meta, h http.Header) mcp.Request {
		return &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: "t", Meta: meta}, Extra: &mcp.RequestExtra{Header: h}}
	}
	metaOnly := tool(mcp.Meta{"traceparent": metaTraceparent, "tracestate": "rojo=00f067aa0ba902b7"}, nil)
	headerOnly := tool(nil, http.Header{"Traceparent": {headerTraceparent}})
	both := tool(mcp.Meta{"traceparent": metaTraceparent}, http.Header{"Traceparent": {headerTraceparent}})
	neither := tool(mcp.Meta{"progressToken": 1}, http.Header{"X-Other": {"1"}})

	t.Run("meta", func(t *testing.T) {
		is := is.New(t)
		ctx, links := parent(context.Background(), p, metaOnly, TrustClientTrace)
		sc := trace.SpanContextFromContext(ctx)
		is.Equal(sc.TraceID().String(), "4bf92f3577b34da6a3ce929d0e0e4736")
		is.Equal(sc.TraceState().Get("rojo"), "00f067aa0ba902b7")
		is.True(sc.IsRemote())
		is.Equal(len(links), 0)
	})
	t.Run("header", func(t *testing.T) {
		is := is.New(t)
		ctx, links := parent(context.Background(), p, headerOnly, TrustClientTrace)
		is.Equal(trace.SpanContextFromContext(ctx).TraceID().String(), "0af7651916cd43dd8448eb211c80319c")
		is.Equal(len(links), 0)
	})
	t.Run("both", func(t *testing.T) {
		is := is.New(t)
		ctx, links := parent(context.Background(), p, both, TrustClientTrace)
		is.Equal(trace.SpanContextFromContext(ctx).TraceID().String(), "4bf92f3577b34da6a3ce929d0e0e4736")
		is.Equal(len(links), 1)
		is.Equal(links[0].SpanContext.TraceID().String(), "0af7651916cd43dd8448eb211c80319c")
	})
	t.Run("neither", func(t *testing.T) {
		is := is.New(t)
		ctx, links := parent(context.Background(), p, neither, TrustClientTrace)
		is.True(!trace.SpanContextFromContext(ctx).IsValid())
		is.Equal(len(links), 0)
	})
	t.Run("malformed meta falls back to the header", func(t *testing.T) {
		is := is.New(t)
		req := tool(mcp.Meta{"traceparent": "garbage", "tracestate": 7}, http.Header{"Traceparent": {headerTraceparent}})
		ctx, _ := parent(context.Background(), p, req, TrustClientTrace)
		is.Equal(trace.SpanContextFromContext(ctx).TraceID().String(), "0af7651916cd43dd8448eb211c80319c")
	})
}

func TestUntrustedClientTraceIsNoParent(t *testing.T) {
	p := propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{})
	req := &mcp.CallToolRequest{
		Params: &mcp.CallToolParamsRaw{Name: "t", Meta: mcp.Meta{"traceparent": metaTraceparent, "baggage": "tenant=admin"}},
		Extra:  &mcp.RequestExtra{Header: http.Header{"Traceparent": {headerTraceparent}, "Baggage": {"tenant=root"}}},
	}
	sameTwice := &mcp.CallToolRequest{
		Params: &mcp.CallToolParamsRaw{Name: "t", Meta: mcp.Meta{"traceparent": metaTraceparent}},
		Extra:  &mcp.RequestExtra{Header: http.Header{"Traceparent": {metaTraceparent}}},
	}
	arrival := context.Background()

	t.Run("link", func(t *testing.T) {
		is := is.New(t)
		ctx, links := parent(arrival, p, req, LinkClientTrace)
		is.Equal(ctx, arrival) // no parent, no baggage from the client
		is.Equal(len(links), 2)
		is.Equal(links[0].SpanContext.TraceID().String(), "4bf92f3577b34da6a3ce929d0e0e4736")
		is.Equal(links[1].SpanContext.TraceID().String(), "0af7651916cd43dd8448eb211c80319c")
		_, links = parent(arrival, p, sameTwice, LinkClientTrace)
		is.Equal(len(links), 1) // one span context, linked once
	})
	t.Run("ignore", func(t *testing.T) {
		is := is.New(t)
		ctx, links := parent(arrival, p, req, IgnoreClientTrace)
		is.Equal(ctx, arrival)
		is.Equal(len(links), 0)
	})
	t.Run("trust", func(t *testing.T) {
		is := is.New(t)
		ctx, _ := parent(arrival, p, req, TrustClientTrace)
		is.Equal(trace.SpanContextFromContext(ctx).TraceID().String(), "4bf92f3577b34da6a3ce929d0e0e4736")
		is.Equal(baggage.FromContext(ctx).Member("tenant").Value(), "admin") // the client's baggage reaches handlers
	})
}

func TestMetaCarrierKeysAreItsStrings(t *testing.T) {
	is := is.New(t)
	m := metaCarrier{"traceparent": metaTraceparent, "progressToken": 3}
	is.Equal(m.Keys(), []string{"traceparent"})
	m.Set("tracestate", "a=b")
	is.Equal(m.Get("tracestate"), "a=b")
	is.Equal(m.Get("progressToken"), "")
}
