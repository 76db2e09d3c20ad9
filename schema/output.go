package schema

import (
	"encoding"
	"encoding/json"
	"reflect"
	"slices"
)

var (
	typeMarshaler     = reflect.TypeFor[json.Marshaler]()
	typeTextMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
)

// OutputSchema returns the JSON Schema of a struct (or pointer-to-struct)
// output type, for a tool's outputSchema; ok is false for any other type,
// including structs that marshal themselves (time.Time, json.Marshaler),
// whose JSON need not be an object. The result is cached per type, in
// the shared Validator of CodecFor, and the caller owns the returned copy.
//
// It describes what encoding/json writes: properties in declaration order,
// "null" allowed where a nil pointer, slice or map is written as null (not
// where omitempty leaves it out), "required" only for validate:"required",
// and objects left open.
func OutputSchema(t reflect.Type) (s json.RawMessage, ok bool) {
	return defaultValidator().OutputSchema(t)
}

// OutputSchema is the package-level OutputSchema cached in v and named
// with v's definition names, as its Codecs are: an app's output schemas
// are its own.
func (v *Validator) OutputSchema(t reflect.Type) (s json.RawMessage, ok bool) {
	t, ok = outputType(t)
	if !ok {
		return nil, false
	}
	if s, ok := v.outputs.Load(t); ok {
		return slices.Clone(s.(json.RawMessage)), true
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if s, ok := v.outputs.Load(t); ok {
		return slices.Clone(s.(json.RawMessage)), true
	}
	raw := assembled(buildSchema(v, t, modeOutput))
	v.outputs.Store(t, raw)
	return slices.Clone(raw), true
}

// outputType is t when OutputSchema describes it (a struct that does not
// marshal itself, or a pointer to one), dereferenced; ok is false otherwise.
func outputType(t reflect.Type) (reflect.Type, bool) {
	if t == nil {
		return nil, false
	}
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || implements(t, typeMarshaler) || implements(t, typeTextMarshaler) {
		return nil, false
	}
	return t, true
}

// assembled is a built schema's JSON, its recursive definitions in $defs.
func assembled(built builtSchema) json.RawMessage {
	root := built.root
	if len(built.defNames) > 0 {
		defs := &node{}
		for _, name := range built.defNames {
			defs.set(name, built.defs[name])
		}
		root.set("$defs", defs)
	}
	return json.RawMessage(root.marshal())
}
