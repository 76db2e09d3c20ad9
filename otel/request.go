package vurbotel

import (
	"reflect"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel/attribute"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
)

// The MCP methods whose spans and metrics name a target.
const (
	methodCallTool     = "tools/call"
	methodGetPrompt    = "prompts/get"
	methodReadResource = "resources/read"
	methodSubscribe    = "resources/subscribe"
	methodUnsubscribe  = "resources/unsubscribe"
	methodInitialize   = "initialize"
)

// executeTool is gen_ai.operation.name on tool calls: it lets a backend
// treat MCP tool calls as it treats every other GenAI tool execution.
const executeTool = "execute_tool"

// requestInfo is what the instrumentation reads from an MCP request before
// handling it: the conventions' span name and attributes come from it.
// Every value a client chose is bounded before it is kept here: a name
// the app does not serve is otherName, a version no known revision, a
// URI or session id cut to maxAttributeLength.
type requestInfo struct {
	method   string
	tool     string // gen_ai.tool.name: the wire name called, or otherName
	prompt   string // gen_ai.prompt.name, or otherName
	asked    string // the name the client sent when tool or prompt is otherName
	uri      string // mcp.resource.uri
	session  string // mcp.session.id; empty without a session
	protocol string // mcp.protocol.version: negotiated, a known revision, or otherName
	http     bool   // arrived over HTTP (streamable HTTP)
}

// describe reads req. It never fails: what a request does not carry is
// left empty and not recorded. The protocol version of an initialize
// request is the one the server negotiates, known when it answers (see
// settle), not the one the client asks for.
func (in *instrumentation) describe(method string, req mcp.Request) requestInfo {
	info := requestInfo{method: method}
	switch p := params(req).(type) {
	case *mcp.CallToolParamsRaw:
		info.tool, info.asked = in.names.tool(p.Name), p.Name
	case *mcp.CallToolParams:
		info.tool, info.asked = in.names.tool(p.Name), p.Name
	case *mcp.GetPromptParams:
		info.prompt, info.asked = in.names.prompt(p.Name), p.Name
	case *mcp.ReadResourceParams:
		info.uri = cut(p.URI, maxAttributeLength)
	case *mcp.SubscribeParams:
		info.uri = cut(p.URI, maxAttributeLength)
	case *mcp.UnsubscribeParams:
		info.uri = cut(p.URI, maxAttributeLength)
	}
	if info.tool != otherName && info.prompt != otherName {
		info.asked = ""
	}
	s := req.GetSession()
	if s != nil && !isNil(s) {
		info.session = cut(s.ID(), maxAttributeLength)
	}
	if method != methodInitialize {
		info.protocol = in.sessions.protocol(s, req)
	}
	if extra := req.GetExtra(); extra != nil && extra.Header != nil {
		info.http = true
	}
	return info
}

// settle completes info with what the answer proves, and returns the
// attributes that changed (none, mostly): an initialize answer gives the
// negotiated protocol version; a successful answer for a name recorded as
// otherName proves the server has it (an unknown tool or prompt is a
// protocol error), so the name is learned, and recorded from then on.
func (in *instrumentation) settle(info *requestInfo, res mcp.Result, err error) []attribute.KeyValue {
	if err != nil || res == nil || isNil(res) {
		return nil
	}
	if r, ok := res.(*mcp.InitializeResult); ok {
		if info.protocol = revision(r.ProtocolVersion); info.protocol == "" {
			return nil
		}
		return []attribute.KeyValue{semconv.McpProtocolVersionKey.String(info.protocol)}
	}
	switch {
	case info.asked == "":
	case info.tool == otherName && in.names.learn(&in.names.tools, info.asked):
		info.tool, info.asked = info.asked, ""
		return []attribute.KeyValue{semconv.GenAIToolNameKey.String(info.tool)}
	case info.prompt == otherName && in.names.learn(&in.names.prompts, info.asked):
		info.prompt, info.asked = info.asked, ""
		return []attribute.KeyValue{semconv.GenAIPromptNameKey.String(info.prompt)}
	}
	return nil
}

// params is req's params, or nil when it has none: the go-sdk's params
// types read their fields through pointer receivers, so a typed nil would
// panic where a nil interface is simply skipped.
func params(req mcp.Request) mcp.Params {
	p := req.GetParams()
	if p == nil || isNil(p) {
		return nil
	}
	return p
}

func isNil(v any) bool {
	rv := reflect.ValueOf(v)
	return rv.Kind() == reflect.Pointer && rv.IsNil()
}

// meta is the request's _meta, where SEP-414 carries trace context.
func meta(req mcp.Request) map[string]any {
	if p := params(req); p != nil {
		return p.GetMeta()
	}
	return nil
}

// spanName is "{mcp.method.name} {target}", the target being the tool or
// prompt name; a resource URI only when the user opted in, since URIs can
// take unbounded values and span names should not. A name the app does
// not serve is no target: the span is named after the method alone.
func (r *requestInfo) spanName(withURI bool) string {
	switch {
	case r.tool == otherName || r.prompt == otherName:
	case r.tool != "":
		return r.method + " " + r.tool
	case r.prompt != "":
		return r.method + " " + r.prompt
	case withURI && r.uri != "":
		return r.method + " " + r.uri
	}
	return r.method
}

// spanAttributes are the attributes known when the request arrives, given
// at span start so that samplers see them.
func (r *requestInfo) spanAttributes() []attribute.KeyValue {
	kv := make([]attribute.KeyValue, 0, 7)
	kv = append(kv, semconv.McpMethodNameKey.String(r.method))
	kv = r.target(kv)
	if r.uri != "" {
		kv = append(kv, semconv.McpResourceURIKey.String(r.uri))
	}
	if r.session != "" {
		kv = append(kv, semconv.McpSessionIDKey.String(r.session))
	}
	return r.transport(kv)
}

// metricAttributes are the operation-duration histogram's attributes: the
// span's, less those of unbounded cardinality (session, resource URI),
// plus how the request ended.
func (r *requestInfo) metricAttributes(key, errorType string) attribute.Set {
	kv := make([]attribute.KeyValue, 0, 8)
	kv = append(kv, semconv.McpMethodNameKey.String(r.method))
	kv = r.target(kv)
	kv = r.transport(kv)
	if key != "" {
		kv = append(kv, actionKey.String(key))
	}
	if errorType != "" {
		kv = append(kv, semconv.ErrorTypeKey.String(errorType))
	}
	return attribute.NewSet(kv...)
}

// activeAttributes are the in-flight counter's: it is added to and taken
// from with the same set, known before the request is handled.
func (r *requestInfo) activeAttributes() attribute.Set {
	kv := make([]attribute.KeyValue, 0, 3)
	kv = append(kv, semconv.McpMethodNameKey.String(r.method))
	return attribute.NewSet(r.target(kv)...)
}

func (r *requestInfo) target(kv []attribute.KeyValue) []attribute.KeyValue {
	switch {
	case r.tool != "":
		kv = append(kv, semconv.GenAIToolNameKey.String(r.tool), semconv.GenAIOperationNameKey.String(executeTool))
	case r.prompt != "":
		kv = append(kv, semconv.GenAIPromptNameKey.String(r.prompt))
	}
	return kv
}

func (r *requestInfo) transport(kv []attribute.KeyValue) []attribute.KeyValue {
	if r.protocol != "" {
		kv = append(kv, semconv.McpProtocolVersionKey.String(r.protocol))
	}
	if r.http {
		kv = append(kv, semconv.NetworkProtocolNameKey.String("http"), semconv.NetworkTransportKey.String("tcp"))
	}
	return kv
}
