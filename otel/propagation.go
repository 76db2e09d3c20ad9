package vurbotel

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// metaCarrier reads and writes trace context in a request's _meta, where
// SEP-414 puts it under the unprefixed W3C keys (traceparent, tracestate,
// baggage).
type metaCarrier map[string]any

var _ propagation.TextMapCarrier = metaCarrier(nil)

// Get returns the value of key when it is a string.
func (m metaCarrier) Get(key string) string {
	s, _ := m[key].(string)
	return s
}

// Set stores value under key.
func (m metaCarrier) Set(key, value string) { m[key] = value }

// Keys lists the keys whose values are strings.
func (m metaCarrier) Keys() []string {
	keys := make([]string, 0, len(m))
	for k, v := range m {
		if _, ok := v.(string); ok {
			keys = append(keys, k)
		}
	}
	return keys
}

// parent returns the context the request's span starts in, and the links
// it carries, as mode says (see ClientTrace): the arrival context linked
// to the client's span contexts, the client's trace context, or the
// arrival context alone.
func parent(ctx context.Context, p propagation.TextMapPropagator, req mcp.Request, mode ClientTrace) (context.Context, []trace.Link) {
	switch mode {
	case TrustClientTrace:
		return trusted(ctx, p, req)
	case IgnoreClientTrace:
		return ctx, nil
	}
	return ctx, clientLinks(ctx, p, req)
}

// clientLinks links each valid span context the client sent, in _meta
// and in the HTTP header, once, unless it is the arrival context's. They
// are read apart from ctx, so the client's baggage stays out of it.
func clientLinks(ctx context.Context, p propagation.TextMapPropagator, req mcp.Request) []trace.Link {
	ambient := trace.SpanContextFromContext(ctx)
	var links []trace.Link
	add := func(c propagation.TextMapCarrier) {
		sc := trace.SpanContextFromContext(p.Extract(context.Background(), c))
		if !sc.IsValid() || sc.Equal(ambient) || (len(links) > 0 && links[0].SpanContext.Equal(sc)) {
			return
		}
		links = append(links, trace.Link{SpanContext: sc})
	}
	if m := meta(req); len(m) > 0 {
		add(metaCarrier(m))
	}
	if extra := req.GetExtra(); extra != nil && len(extra.Header) > 0 {
		add(propagation.HeaderCarrier(extra.Header))
	}
	return links
}

// trusted returns the client's trace context as the span's parent. The
// parent is, in order: the trace context in the request's _meta (per
// request, whatever the transport: what SEP-414 and the conventions
// prescribe), the HTTP request's traceparent header (older clients
// propagate it there), the context the request arrived in (an HTTP
// middleware's span, or none: a new root). When _meta wins, a different
// trace context from the header or the arrival context is kept as a link,
// as the conventions ask, since one HTTP request can carry several MCP
// requests and one MCP request be retried over several HTTP requests.
func trusted(ctx context.Context, p propagation.TextMapPropagator, req mcp.Request) (context.Context, []trace.Link) {
	ambient := trace.SpanContextFromContext(ctx)
	around := ctx // the header's context, else the arrival's
	if extra := req.GetExtra(); extra != nil && len(extra.Header) > 0 {
		around = p.Extract(ctx, propagation.HeaderCarrier(extra.Header))
	}
	if m := meta(req); len(m) > 0 {
		fromMeta := p.Extract(ctx, metaCarrier(m))
		if sc := trace.SpanContextFromContext(fromMeta); sc.IsValid() && !sc.Equal(ambient) {
			if other := trace.SpanContextFromContext(around); other.IsValid() && !other.Equal(sc) {
				return fromMeta, []trace.Link{{SpanContext: other}}
			}
			return fromMeta, nil
		}
	}
	return around, nil
}
