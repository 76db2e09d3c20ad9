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
// such as otelhttp started a span). Handlers and middleware receive the
// span in their ctx, so their own spans nest under it.
//
// # Why a module of its own
//
// vurbotel is the Go module github.com/vurb-go/vurb/otel, apart from vurb's
// (the layout mark3labs/mcp-go chose for its otel package): vurb's go.mod
// does not list the OpenTelemetry SDK, so an app that does not import this
// package has none of it in its module graph, its go.sum or its
// dependency audits, and vurbotel can follow OpenTelemetry's monthly
// releases without a release of vurb. An app that does not install vurbotel
// pays nothing on its calls either: vurb's request middleware and observers
// are nil slices then.
//
// The package is named vurbotel, not otel, so that it can be imported next
// to go.opentelemetry.io/otel without a rename.
package vurbotel
