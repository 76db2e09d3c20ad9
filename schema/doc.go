// Package schema turns a Go input struct into the three things an MCP tool
// needs from it: a self-contained JSON Schema for tools/list, a strict decoder
// that reads a call's arguments exactly as the schema promises, and a
// validator whose messages a model can act on.
//
// Everything that needs reflection happens once per type, in [CodecFor]; the
// result is cached and safe for concurrent use. A call then costs one
// allocation-free pre-scan of the arguments (well-formedness, size and depth
// limits, exact and unique key names, JSON kinds, integer ranges, UTF-8),
// one json.Unmarshal and one validator pass.
//
// The struct tags are the single source of truth: `json` names a property,
// `description` describes it, `validate` (go-playground/validator) constrains
// it, and the schema shows the same constraints. A property the validator
// would reject when absent is required in the schema, and a property that the
// schema calls optional is never rejected for being absent. Where the two
// could disagree, CodecFor panics with a message that says how to fix the
// struct.
package schema
