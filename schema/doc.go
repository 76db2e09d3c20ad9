// Package schema turns a Go input struct into the three things an MCP tool
// needs from it: a self-contained JSON Schema for tools/list, a strict decoder
// that reads a call's arguments exactly as the schema promises, and a
// validator whose messages a model can act on. vurb uses it for every tool;
// it is public so that tests and tools can see, and reuse, exactly what vurb
// will do with an input struct.
//
// Everything that needs reflection happens once per type, in [CodecFor]; the
// result is cached and safe for concurrent use. A call then costs one
// allocation-free pre-scan of the arguments (well-formedness, size and depth
// limits, exact and unique key names, JSON kinds, integer ranges, UTF-8),
// one json.Unmarshal and one validator pass: no more allocations than
// json.Unmarshal and validator.Struct make on their own.
//
// # Tags: one source of truth
//
// The struct tags are the single source of truth, and the schema tells all
// of it: a call the schema allows is accepted, a call it refuses is
// refused, and the handler receives what the schema promised. `json` names
// a property (embedded structs are flattened as encoding/json flattens
// them), `description` describes it, `validate` (go-playground/validator)
// constrains it, and every rule is stated:
//
//   - as keywords where JSON Schema has them: min/max/len/gt/gte/lt/lte
//     become numeric bounds, lengths or item counts; eq becomes const and
//     ne not/const; oneof becomes enum; email, url, uri, uuid, ipv4, ipv6,
//     ip and datetime become formats; alpha, alphanum, numeric, number,
//     hexadecimal, versioned UUIDs, hostnames, startswith, endswith and
//     contains become patterns; unique becomes uniqueItems; "a|b" becomes
//     anyOf; rules after dive apply to items, keys...endkeys to
//     propertyNames; required on a string becomes minLength 1, since the
//     validator refuses "";
//   - conditional rules (required_if, required_unless, required_with,
//     required_with_all, required_without, required_without_all and their
//     excluded_ twins) as dependentRequired or if/then/else on a const in
//     the object, and in the property's description in words ("Required
//     when type is "card"."); a refusal names the field that triggered it;
//   - every other rule, built in (printascii, excludes, gtfield...) or
//     custom ([Validator.RegisterRule]), as keywords its author gave it
//     (RulePattern, RuleFormat, RuleEnum, RuleKeywords) or else in the
//     property's description, in the words of its error message.
//
// `default` is published and applied: Decode fills a default into a
// property left out of an object that was sent (pointers and nested
// objects included), on both decode paths, and CodecFor panics when a
// field's own rules reject its default. `example` documents, and `enum` on
// a string or integer field is enforced like oneof. swaggest's other
// constraint tags (minimum, pattern, format...) would advertise rules
// nothing enforces, so CodecFor refuses them and names the validate rule
// to use instead.
//
// Numbers follow JSON Schema: an integer property takes any whole number,
// 7.0, -833.0 and 1e2 included, and refuses 7.5 naming the value; a sized
// integer type's range is stated as minimum and maximum. null is refused:
// no input schema allows it, and a property is left out instead (an any or
// json.RawMessage property takes null as its value). A zero value that is
// sent ("", 0, false) is held to the rules the schema states, even where
// omitempty would let the validator skip them; an absent property is zero
// and passes.
//
// # Required and optional
//
// A property is required when its validate tag says required, or when the
// validator would reject what an absent property decodes to: its zero
// value, or its default. Pointers and omitempty fields are optional;
// CodecFor panics, saying what to change, when an optional field's rules
// reject its absence, and on validate:"required" over a non-pointer number
// or bool, which would reject a legitimate 0 or false. So a property the
// schema calls optional is never refused for being absent, and one the
// validator needs is required. Decode reports a missing required property
// as missing ("is required"), and a required property sent as null too.
//
// # Hand-written schemas
//
// A tool whose input is not a struct (json.RawMessage or a map) takes a
// JSON Schema written by hand: [CodecFromSchema] publishes it as given
// and checks every call against it with a [Checker] before anything else
// sees it. Package github.com/vurb-go/vurb/schema/jsonschema holds the
// JSON Schema 2020-12 validator that makes one, apart, so that only
// programs with hand-written schemas link it.
//
// # Messages and validators are values
//
// Nothing a call reads is a package setting: the package has no variable
// to set. The texts of every refusal are a [Messages] value, passed in
// [DecodeOptions] (nil means the built-in texts, which [DefaultMessages]
// copies); two applications in one process can word their errors
// differently, and a Messages can be changed for the next calls without
// touching the ones in flight. The rules are those of a [Validator]: the
// package-level CodecFor and For use a shared one with the built-in rules,
// and [NewValidator] makes another, to which custom rules are added with
// their own texts ([Validator.RegisterRule]). A Codec belongs to the
// Validator that built it, so two Validators with different rules decode
// the same type each in their own way.
//
// # Grouped tools
//
// A grouped tool's one schema, with its discriminator property and the notes
// saying which action needs which property, is [Merge] of its actions'
// Codecs; [Lookup] reads the discriminator of a call before anything is
// decoded, and [DecodeOptions].Skip has the action's Codec accept and
// ignore it. vurb builds and routes grouped tools with these; they are
// here so that a test or a tool can see exactly what vurb publishes.
//
// # Presenters
//
// [JSONFields] lists the properties encoding/json writes for a struct, and
// [Validator.OutputSchemaRedacted] states the output schema of results a
// presenter redacts ([Redactions], [RedactedEcho]).
package schema
