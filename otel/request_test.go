package vurbotel

import (
	"net/http"
	"testing"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel/attribute"
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
			info := describe(c.method, c.req)
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
	info := describe("tools/call", req)
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

func attrMap(kvs []attribute.KeyValue) map[string]string {
	m := make(map[string]string, len(kvs))
	for _, kv := range kvs {
		m[string(kv.Key)] = kv.Value.Emit()
	}
	return m
}
