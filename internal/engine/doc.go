// Package engine is vurb's compiled layer: what runs once an app is built.
//
// The root package (the definition layer) lowers an app's tools, actions,
// middleware and options to plain specs ([ToolSpec], [ActionSpec],
// [Runtime]) and hands them to [Compile], which returns an immutable
// [Plan]: the wire definitions of tools/list and a route table that
// tools/call dispatches through. A call is then one map lookup, one decode
// and validation, and one call of a chain composed at build time.
//
// It stands apart from the root package so that the boundary between the two
// layers is an import boundary: the plan owns everything a call needs (its
// logger, observer, limits, messages and request ids) and never points back
// at the definitions, so views of it (tag filters, per-caller lists) are
// derived from plan data without compiling anything again, and a
// definition changed after Build cannot reach a call.
//
// Nothing here is for users to import; the root package documents and
// exposes what they need.
package engine
