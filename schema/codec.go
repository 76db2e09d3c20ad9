package schema

import (
	"encoding/json"
	"reflect"

	"github.com/vurb-go/vurb/internal/schema"
)

// Codec is the compiled form of one Go input struct type for one Validator:
// its JSON Schema, its field list and its strict decoder and validator. It
// is built once per (Validator, type) by CodecFor, never changes afterwards,
// and is safe for concurrent use. Its methods:
//
//   - Decode(data, dst, opts) strictly decodes data, a JSON object, into
//     dst, a non-nil pointer to Type(), then validates it. nil, empty or
//     blank data means {}. dst is zeroed first. Bad input returns an *Error
//     listing every problem found, worded by opts.Messages; a dst of the
//     wrong type returns a plain error; Decode never panics on any input.
//     Unlike json.Unmarshal alone it matches names case-sensitively, refuses
//     unknown and duplicate keys, reports missing required keys as missing
//     (a required one sent as null too; an optional one sent as null is
//     refused: leave it out), applies defaults to absent properties, reads
//     whole numbers written as floats (7.0, 1e2) into integers, names the
//     field and the expected type on a kind mismatch, refuses numbers that
//     do not fit the field's Go type and strings that are not valid UTF-8,
//     and refuses documents larger than Limits.MaxBytes or deeper than
//     Limits.MaxDepth before decoding. A Codec of CodecFromSchema decodes
//     into a *json.RawMessage, a *map[string]any or a *any instead.
//   - Schema() returns the input JSON Schema: compact, keys in a fixed
//     order, properties in declaration order, so that it can be compared
//     and cached byte for byte. The caller owns the copy.
//   - Fields() returns the top-level properties in declaration order,
//     embedded structs flattened. The caller owns the slice.
//   - Type() returns the struct type decoded into (never a pointer).
type Codec = schema.Codec

// Field describes one top-level property of a Codec's schema (its JSON
// name and type, whether it is required, its description and its own
// schema), so that callers can describe or regroup properties without
// parsing the schema.
type Field = schema.Field

// Limits bound the work spent on one call's arguments, so that a hostile
// call costs no more than a legitimate one: documents larger than MaxBytes
// or nested deeper than MaxDepth are refused before anything is decoded.
// Zero fields mean DefaultMaxBytes and DefaultMaxDepth.
type Limits = schema.Limits

// DefaultMaxBytes is the largest arguments document Decode reads when
// Limits.MaxBytes is zero.
const DefaultMaxBytes = schema.DefaultMaxBytes

// DefaultMaxDepth is the deepest nesting of objects and arrays Decode reads
// when Limits.MaxDepth is zero.
const DefaultMaxDepth = schema.DefaultMaxDepth

// DecodeOptions tune one Decode: its Limits, and the Messages that word its
// errors. The zero value means the default limits and the built-in texts
// (those DefaultMessages returns).
type DecodeOptions = schema.DecodeOptions

// CodecFor returns the Codec of t, a struct type or a pointer to one, for
// the shared Validator with the built-in rules, building it on first use;
// later calls are a map lookup.
//
// It panics on definition errors, naming the struct and the field and saying
// what to change: a validate:"required" on a non-pointer number or bool
// (it would reject a legitimate 0 or false), an optional field (pointer or
// omitempty) whose rules reject its absence, a malformed validate tag or
// one naming a rule the validator does not know, a default that is not a
// value of its field's type or that the field's own rules or enum reject,
// a conditional rule naming a field the struct does not have, two fields
// with the same JSON name, a type JSON cannot decode. It also panics if t
// is not a struct or a pointer to a struct.
func CodecFor(t reflect.Type) *Codec { return schema.CodecFor(t) }

// For is CodecFor for a type parameter: For[ListProjects]().
func For[T any]() *Codec { return schema.For[T]() }

// OutputSchema returns the JSON Schema of a struct (or pointer-to-struct)
// output type, for a tool's outputSchema; ok is false for any other type,
// including structs that marshal themselves (time.Time, json.Marshaler),
// whose JSON need not be an object. The result is cached per type and the
// caller owns the returned copy.
//
// It describes what encoding/json writes: properties in declaration order,
// "null" allowed where a nil pointer, slice or map is written as null (not
// where omitempty leaves it out), "required" only for validate:"required",
// and objects left open.
func OutputSchema(t reflect.Type) (s json.RawMessage, ok bool) { return schema.OutputSchema(t) }

// CodecFromSchema returns a Codec for a tool whose input is a hand-written
// JSON Schema rather than a Go struct: doc (draft 2020-12 unless its
// $schema names another draft, with $defs, $ref, anyOf, if/then, const...)
// is published as given, whitespace removed, and Decode checks every call
// against it with a JSON Schema validator before storing it into a
// *json.RawMessage, a *map[string]any or a *any. Its Type is
// json.RawMessage and its Fields are doc's top-level properties.
//
// doc's root must be an object schema ("type": "object"), as MCP requires
// of an input schema. Formats are asserted (a "format": "email" property
// refuses what is not an email address), and references resolve within
// doc only: a $ref to another document is an error, never a download. A
// refusal is an *Error with one Issue per failed keyword, at the path of
// the value; the alternatives of a failed anyOf or oneOf make one Issue.
// It returns an error when doc is not such a schema.
func CodecFromSchema(doc json.RawMessage) (*Codec, error) { return schema.CodecFromSchema(doc) }
