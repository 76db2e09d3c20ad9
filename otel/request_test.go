package vurbotel

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"testing"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/observe"
	"go.opentelemetry.io/otel/attribute"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	tracenoop "go.opentelemetry.io/otel/trace/noop"
)

func TestDescribeNamesTheTarget(t *testing.T) {
	for _, c := range []struct {
		method  string
		req     mcp.Request
		name    string
		withURI string // the name with WithResourceURIInSpanName
	}{
		{"tools/call", &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: "projects_list"}}, "tools/call projects_list", "tools/call projects_list"},
		{"prompts/get", &mcp.GetPromptRequest{Params: &mcp.GetPromptParams{Name: "review"}}, "prompts/get review", "prompts/get review"},
		{"resources/read", &mcp.ReadResourceRequest{Params: &mcp.ReadResourceParams{URI: "file:///a"}}, "resources/read", "resources/read file:///a"},
		{"tools/list", &mcp.ListToolsRequest{Params: &mcp.ListToolsParams{}}, "tools/list", "tools/list"},
		{"tools/list", &mcp.ListToolsRequest{}, "tools/list", "tools/list"}, // no params at all
		{"ping", &mcp.ServerRequest[*mcp.PingParams]{}, "ping", "ping"},
	} {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			info := served("projects_list", "review").describe(c.method, c.req)
			is.Equal(info.spanName(false), c.name)
			is.Equal(info.spanName(true), c.withURI)
		})
	}
}

func TestSpanAttributesFollowTheConventions(t *testing.T) {
	is := is.New(t)
	req := &mcp.CallToolRequest{
		Params: &mcp.CallToolParamsRaw{Name: "projects_list", Meta: mcp.Meta{mcp.MetaKeyProtocolVersion: "2026-07-28"}},
		Extra:  &mcp.RequestExtra{Header: http.Header{}},
	}
	info := served("projects_list").describe("tools/call", req)
	got := attrMap(info.spanAttributes())
	is.Equal(got, map[string]string{
		"mcp.method.name":       "tools/call",
		"gen_ai.tool.name":      "projects_list",
		"gen_ai.operation.name": "execute_tool",
		"mcp.protocol.version":  "2026-07-28",
		"network.protocol.name": "http",
		"network.transport":     "tcp",
	})
}

func TestMetricAttributesLeaveOutUnboundedValues(t *testing.T) {
	is := is.New(t)
	info := requestInfo{method: "resources/read", uri: "file:///customers/42", session: "abc"}
	set := info.metricAttributes("", "-32002")
	is.Equal(attrMap(set.ToSlice()), map[string]string{"mcp.method.name": "resources/read", "error.type": "-32002"})
	info = requestInfo{method: "tools/call", tool: "projects", session: "abc", protocol: "2025-11-25"}
	set = info.metricAttributes("projects.list", "")
	is.Equal(attrMap(set.ToSlice()), map[string]string{
		"mcp.method.name": "tools/call", "gen_ai.tool.name": "projects", "gen_ai.operation.name": "execute_tool",
		"mcp.protocol.version": "2025-11-25", "vurb.action.key": "projects.list",
	})
}

// served is an instrumentation that knows the tools named, as if vurb had
// compiled them, and the prompts among them, as if they had been got.
func served(names ...string) *instrumentation {
	in := newInstrumentation(newConfig([]Option{WithTracerProvider(tracenoop.NewTracerProvider()), WithMeterProvider(metricnoop.NewMeterProvider())}))
	for _, n := range names {
		in.observe(context.Background(), observe.Event{Kind: observe.ToolRegistered, Name: n})
		in.names.learn(&in.names.prompts, n)
	}
	return in
}

func attrMap(kvs []attribute.KeyValue) map[string]string {
	m := make(map[string]string, len(kvs))
	for _, kv := range kvs {
		m[string(kv.Key)] = kv.Value.Emit()
	}
	return m
}

func TestUnknownNamesAreOther(t *testing.T) {
	is := is.New(t)
	in := served("projects_list")
	for _, c := range []struct {
		method, name, span string
	}{
		{"tools/call", "projects_list", "tools/call projects_list"},
		{"tools/call", "projects_lost", "tools/call"},
		{"prompts/get", "review", "prompts/get"}, // not got yet
	} {
		var req mcp.Request = &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: c.name}}
		if c.method == "prompts/get" {
			req = &mcp.GetPromptRequest{Params: &mcp.GetPromptParams{Name: c.name}}
		}
		info := in.describe(c.method, req)
		is.Equal(info.spanName(false), c.span)
	}
	info := in.describe("prompts/get", &mcp.GetPromptRequest{Params: &mcp.GetPromptParams{Name: "review"}})
	is.Equal(in.settle(&info, nil, errors.New("unknown prompt")), nil) // a failure proves nothing
	is.Equal(info.prompt, otherName)
	kv := in.settle(&info, &mcp.GetPromptResult{}, nil) // an answer proves the prompt exists
	is.Equal(attrMap(kv), map[string]string{"gen_ai.prompt.name": "review"})
	is.Equal(info.spanName(false), "prompts/get review")
}

func TestLearnedNamesAreBounded(t *testing.T) {
	is := is.New(t)
	var c catalog
	for i := range maxLearnedNames {
		is.True(c.learn(&c.tools, strconv.Itoa(i)))
	}
	is.True(c.learn(&c.tools, "0"))       // known already
	is.True(!c.learn(&c.prompts, "more")) // past the bound
	is.Equal(c.prompt("more"), otherName)
	c.register("compiled") // the app's own tools are not bounded
	is.Equal(c.tool("compiled"), "compiled")
}

func TestRevisionIsAKnownOne(t *testing.T) {
	is := is.New(t)
	is.Equal(revision("2025-11-25"), "2025-11-25")
	is.Equal(revision("2099-01-01"), otherName)
	is.Equal(revision(""), "")
}
