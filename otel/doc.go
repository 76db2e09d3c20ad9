// Package vurbotel instruments a vurb app with OpenTelemetry: a span for
// every MCP request the app's servers receive, the conventions' metrics,
// and trace and span ids on every line a handler logs.
//
//	app := vurb.New(append([]vurb.Option{vurb.WithName("projects")}, vurbotel.Options()...)...)
//
// Spans, metrics and attributes follow the OpenTelemetry semantic
// conventions for the Model Context Protocol
// (https://opentelemetry.io/docs/specs/semconv/gen-ai/mcp/): a SERVER span
// named "{mcp.method.name} {target}" ("tools/call projects_list"), with
// mcp.method.name, gen_ai.tool.name, gen_ai.operation.name "execute_tool",
// mcp.session.id, mcp.protocol.version and, when the request fails,
// error.type and an ERROR status; vurb adds what it knows beyond the
// protocol under the vurb.* namespace (vurb.action.key, vurb.outcome,
// vurb.request.id). The trace context a client sends in the request's
// _meta (traceparent, tracestate, baggage: SEP-414) is the span's parent;
// without one, the HTTP request's traceparent header; without either, the
// context the request arrived in (a new root unless an HTTP middleware
// such as otelhttp started a span); when _meta wins, a different trace
// context from the header is kept as a link. Handlers and middleware
// receive the span in their ctx, so their own spans nest under it, and
// vurb.Logger(ctx) lines carry its trace_id and span_id. A failed request
// has an ERROR status and error.type: vurb's outcome of a tool call
// (validation, handler, panic, timeout, cancelled, busy, denied) or the
// JSON-RPC error code.
//
// An in-process App.Call is no MCP request: it is recorded as the GenAI
// conventions' execute_tool span (INTERNAL, "execute_tool {tool}"), a
// child of the caller's span, made when the call has ended.
//
// # Metrics
//
//   - mcp.server.operation.duration (s, the conventions' buckets): one point
//     per request, so its count is the request count, by mcp.method.name,
//     gen_ai.tool.name, vurb.action.key, error.type, mcp.protocol.version;
//   - mcp.server.session.duration (s): per session, when it ends;
//   - vurb.server.active_requests ({request}): requests being handled;
//   - vurb.server.active_sessions ({session}): open sessions.
//
// Session ids and resource URIs, unbounded, are on spans only.
//
// # Not recorded
//
// jsonrpc.request.id: the go-sdk does not hand middleware the JSON-RPC id
// (vurb.request.id, vurb's own id of the call, is recorded instead).
// network.transport on stdio: a request does not say which transport
// brought it unless it came over HTTP.
//
// # Why a module of its own
//
// vurbotel is the Go module github.com/vurb-go/vurb/otel, apart from vurb's
// (the layout mark3labs/mcp-go chose for its otel package): vurb's go.mod
// does not list the OpenTelemetry SDK, so an app that does not import this
// package has none of it in its module graph, its go.sum or its
// dependency audits, and vurbotel can follow OpenTelemetry's monthly
// releases without a release of vurb. An app that does not install vurbotel
// pays nothing on its calls either: vurb then has no request middleware and
// no observer to run.
//
// The package is named vurbotel, not otel, so that it can be imported next
// to go.opentelemetry.io/otel without a rename.
package vurbotel
