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
// vurb.request.id). Handlers and middleware receive the span in their
// ctx, so their own spans nest under it, and vurb.Logger(ctx) lines carry
// its trace_id and span_id. A failed request has an ERROR status and
// error.type: vurb's outcome of a tool call (validation, handler, panic,
// timeout, cancelled, busy, denied) or the JSON-RPC error code.
//
// An in-process App.Call is no MCP request: it is recorded as the GenAI
// conventions' execute_tool span (INTERNAL, "execute_tool {tool}"), a
// child of the caller's span, made when the call has ended.
//
// # What a client chooses
//
// A request's strings are the client's, of any length and number, so none
// is recorded as sent. A tool or prompt name the app does not serve is
// recorded as "_OTHER", the conventions' value for what falls outside a
// known set, and its span is named after the method alone ("tools/call"):
// the app's tools are those vurb compiles (vurb reports each to the
// observer), its prompts, and tools added to the go-sdk server directly,
// those a request has shown the server to have by succeeding.
// mcp.protocol.version is the version the server negotiated at initialize,
// else a known revision, else "_OTHER". Resource URIs, session ids and
// error messages are cut to 256 bytes. So no client can add a span name, a
// metric series or a cached attribute set of its choosing: 2,100 calls of
// unknown tools with 100 KB names made spans named with 100,018 bytes and
// filled the operation histogram's 2,000 series, so that a real tool called
// afterwards had none of its own.
//
// The trace context a client sends in the request's _meta (traceparent,
// tracestate, baggage: SEP-414) or in the HTTP request's traceparent
// header is, by default, only linked from the request's span, which
// starts in the context the request arrived in (a new root unless an HTTP
// middleware such as otelhttp started a span): a client's sampled flag
// would otherwise make a ParentBased sampler record what the server
// chose not to, under a trace id of the client's. WithClientTrace makes
// it the parent (TrustClientTrace, as the conventions describe, for
// clients that are yours) or ignores it (IgnoreClientTrace).
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
