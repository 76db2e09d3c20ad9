package vurbotel_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
	vurbotel "github.com/vurb-go/vurb/otel"
	"github.com/vurb-go/vurb/vurbtest"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

const (
	clientTrace  = "4bf92f3577b34da6a3ce929d0e0e4736"
	clientSpan   = "00f067aa0ba902b7"
	headerTrace  = "0af7651916cd43dd8448eb211c80319c"
	headerSpan   = "b7ad6b7169203331"
	metaParent   = "00-" + clientTrace + "-" + clientSpan + "-01"
	headerParent = "00-" + headerTrace + "-" + headerSpan + "-01"
)

func TestToolCallSpan(t *testing.T) {
	is := is.New(t)
	tel := newTelemetry(t)
	c := vurbtest.New(t, newApp(tel))

	is.Equal(c.CallText("docs_search", searchIn{Query: "golang"}), "golang")

	span := tel.span(t, "tools/call docs_search")
	is.Equal(span.SpanKind(), trace.SpanKindServer)
	got := attrs(span.Attributes())
	is.True(got["vurb.request.id"] != "") // vurb's id of the call, as in its log lines
	delete(got, "vurb.request.id")
	is.Equal(got, map[string]string{
		"mcp.method.name":       "tools/call",
		"gen_ai.tool.name":      "docs_search",
		"gen_ai.operation.name": "execute_tool",
		"mcp.protocol.version":  vurbtest.DefaultProtocol,
		"vurb.action.key":       "docs.search",
		"vurb.outcome":          "none",
	})
	is.Equal(span.Status().Code, codes.Unset)
	is.True(!span.Parent().IsValid()) // no trace context sent: a root

	// The handler's ctx carries the span: its own spans nest under it.
	children := tel.children(span)
	is.Equal(len(children), 1)
	is.Equal(children[0].Name(), "db.query")
}

func TestOtherMethodsHaveSpans(t *testing.T) {
	is := is.New(t)
	tel := newTelemetry(t)
	c := vurbtest.New(t, newApp(tel))

	is.True(len(c.Tools()) > 0)
	is.Equal(c.GetPrompt("review", nil).Messages[0].Content.(*mcp.TextContent).Text, "Review this.")
	is.Equal(c.ReadResource("config://app").Contents[0].Text, "debug=false")

	init := tel.span(t, "initialize")
	is.Equal(attrs(init.Attributes())["mcp.protocol.version"], vurbtest.DefaultProtocol)
	list := tel.span(t, "tools/list")
	is.Equal(attrs(list.Attributes())["mcp.method.name"], "tools/list")

	prompt := tel.span(t, "prompts/get review")
	is.Equal(attrs(prompt.Attributes())["gen_ai.prompt.name"], "review")
	is.Equal(len(tel.children(prompt)), 1) // the prompt handler's db.query

	// A resource URI can take unbounded values: an attribute, not the name.
	read := tel.span(t, "resources/read")
	is.Equal(attrs(read.Attributes())["mcp.resource.uri"], "config://app")
	is.Equal(len(tel.children(read)), 1)
}

func TestParentFromMeta(t *testing.T) {
	for _, mode := range modes() {
		t.Run(mode.name, func(t *testing.T) {
			is := is.New(t)
			tel := newTelemetry(t)
			tel.extra = trust
			c := vurbtest.New(t, newApp(tel), mode.opts...)

			c.CallText("docs_search", searchIn{Query: "golang"}, vurbtest.Meta(mcp.Meta{"traceparent": metaParent}))

			span := tel.span(t, "tools/call docs_search")
			is.Equal(ids(span.Parent()), [2]string{clientTrace, clientSpan})
			is.True(span.Parent().IsRemote())
			is.Equal(len(span.Links()), 0)
		})
	}
}

func TestParentFromHTTPHeader(t *testing.T) {
	for _, mode := range httpModes() {
		t.Run(mode.name, func(t *testing.T) {
			is := is.New(t)
			tel := newTelemetry(t)
			tel.extra = trust
			opts := append(mode.opts, vurbtest.Identity{Header: http.Header{"Traceparent": {headerParent}}})
			c := vurbtest.New(t, newApp(tel), opts...)

			c.CallText("docs_search", searchIn{Query: "golang"})

			span := tel.span(t, "tools/call docs_search")
			is.Equal(ids(span.Parent()), [2]string{headerTrace, headerSpan})
			got := attrs(span.Attributes())
			is.Equal(got["network.protocol.name"], "http")
			is.Equal(got["mcp.protocol.version"], mode.protocol)
			if mode.protocol == vurbtest.DefaultProtocol {
				is.True(got["mcp.session.id"] != "") // a session over HTTP has an id
			} else {
				_, ok := got["mcp.session.id"]
				is.True(!ok) // sessionless
			}
			is.Equal(len(tel.children(span)), 1)
		})
	}
}

func TestMetaParentWinsAndLinksTheHeader(t *testing.T) {
	for _, mode := range httpModes() {
		t.Run(mode.name, func(t *testing.T) {
			is := is.New(t)
			tel := newTelemetry(t)
			tel.extra = trust
			opts := append(mode.opts, vurbtest.Identity{Header: http.Header{"Traceparent": {headerParent}}})
			c := vurbtest.New(t, newApp(tel), opts...)

			c.CallText("docs_search", searchIn{Query: "golang"}, vurbtest.Meta(mcp.Meta{"traceparent": metaParent}))

			span := tel.span(t, "tools/call docs_search")
			is.Equal(ids(span.Parent()), [2]string{clientTrace, clientSpan})
			is.Equal(len(span.Links()), 1)
			is.Equal(ids(span.Links()[0].SpanContext), [2]string{headerTrace, headerSpan})
		})
	}
}

// trust makes the client's trace context the span's parent.
var trust = []vurbotel.Option{vurbotel.WithClientTrace(vurbotel.TrustClientTrace)}

// mode is one way a client reaches the server.
type mode struct {
	name     string
	protocol string
	opts     []vurbtest.Option
}

func httpModes() []mode {
	return []mode{
		{"http session", vurbtest.DefaultProtocol, []vurbtest.Option{vurbtest.OverHTTP()}},
		{"http sessionless", vurbtest.Sessionless, []vurbtest.Option{vurbtest.OverHTTP(), vurbtest.Protocol(vurbtest.Sessionless)}},
	}
}

func modes() []mode {
	return append([]mode{
		{"memory", vurbtest.DefaultProtocol, nil},
		{"memory sessionless", vurbtest.Sessionless, []vurbtest.Option{vurbtest.Protocol(vurbtest.Sessionless)}},
	}, httpModes()...)
}

func TestInProcessCallIsAnExecuteToolSpan(t *testing.T) {
	is := is.New(t)
	tel := newTelemetry(t)
	app := newApp(tel)
	ctx, parent := tel.tp.Tracer("agent").Start(context.Background(), "agent step")

	res, err := app.Call(ctx, "docs_search", json.RawMessage(`{"query":"golang"}`))
	is.NoErr(err)
	is.True(!res.IsError)
	res, err = app.Call(ctx, "docs_fail", nil)
	is.NoErr(err)
	is.True(res.IsError)
	parent.End()

	ok := tel.span(t, "execute_tool docs_search")
	is.Equal(ok.SpanKind(), trace.SpanKindInternal)
	is.Equal(ok.Parent().SpanID(), parent.SpanContext().SpanID()) // the caller's span
	got := attrs(ok.Attributes())
	is.Equal(got["gen_ai.operation.name"], "execute_tool")
	is.Equal(got["vurb.action.key"], "docs.search")
	is.Equal(got["vurb.outcome"], "none")
	is.True(ok.EndTime().After(ok.StartTime()))

	failed := tel.span(t, "execute_tool docs_fail")
	is.Equal(attrs(failed.Attributes())["error.type"], "handler")
	is.Equal(failed.Status().Code, codes.Error)

	// The handler's own span nests under the caller's: vurb reports an
	// in-process call once it has ended.
	for _, s := range tel.spans.Ended() {
		if s.Name() == "db.query" {
			is.Equal(s.Parent().SpanID(), parent.SpanContext().SpanID())
		}
	}
}

func TestCallFromAHandlerIsInProcess(t *testing.T) {
	is := is.New(t)
	tel := newTelemetry(t)
	app := newApp(tel)
	vurb.Action(app, "docs.outer", func(ctx context.Context, _ struct{}) (string, error) {
		res, err := app.Call(ctx, "docs_fail", nil)
		if err != nil {
			return "", err
		}
		return fmt.Sprint(res.IsError), nil
	})
	c := vurbtest.New(t, app)

	is.Equal(c.CallText("docs_outer", nil), "true")

	outer := tel.span(t, "tools/call docs_outer")
	is.Equal(attrs(outer.Attributes())["vurb.outcome"], "none") // not the inner call's
	inner := tel.span(t, "execute_tool docs_fail")
	is.Equal(inner.Parent().SpanID(), outer.SpanContext().SpanID())
	is.Equal(attrs(inner.Attributes())["error.type"], "handler")
}
