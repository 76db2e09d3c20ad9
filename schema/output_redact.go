package schema

import (
	"encoding/json"
	"reflect"
	"strings"
)

// Redaction is what a presenter sends in place of one property of an
// output struct: a fixed marker, or nothing at all.
type Redaction struct {
	// Omit removes the property; otherwise its value is Marker.
	Omit   bool
	Marker string
}

// Redactions are the redacted properties of output structs: by struct
// type, then by JSON name.
type Redactions map[reflect.Type]map[string]Redaction

// of is the redaction of property name of struct type t; ok is false when
// it is sent as it is.
func (r Redactions) of(t reflect.Type, name string) (red Redaction, ok bool) {
	if r == nil {
		return Redaction{}, false
	}
	red, ok = r[t][name]
	return red, ok
}

// OutputSchemaRedacted is OutputSchema for results whose properties
// redacted replaces or removes, wherever their struct type appears: a
// property sent as a marker is {"const": marker} (keeping its
// description), a removed one is not listed, and neither is required, so
// the schema stays true of what is sent. It is computed afresh (it depends
// on the app's presenters), named with v's definition names as
// OutputSchema is, and owned by the caller.
func (v *Validator) OutputSchemaRedacted(t reflect.Type, redacted Redactions) (json.RawMessage, bool) {
	t, ok := outputType(t)
	if !ok {
		return nil, false
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	return assembled(buildSchemaWith(v, t, modeOutput, redacted)), true
}

// redactedProperty is the schema of a property always sent as marker: its
// value is the marker, whatever its type was, and its description stays.
func redactedProperty(p *node, marker string) *node {
	out := &node{}
	out.set("const", marker)
	if d := p.str("description"); d != "" {
		out.set("description", d)
	}
	out.sortKeywords()
	return out
}

// JSONField is one property encoding/json writes for a struct: its name,
// where its value is, and the tag options that change how it is written.
type JSONField struct {
	Name  string
	Field reflect.StructField // as declared in the struct that declares it
	Index []int               // for reflect.Value.FieldByIndex, from the outer struct
	// OmitEmpty and OmitZero are the json tag options of those names;
	// Quoted is ",string".
	OmitEmpty, OmitZero, Quoted bool
}

// JSONFields lists the JSON properties of struct type t in declaration
// order, embedded structs flattened in place, as encoding/json writes
// them. It panics, as OutputSchema does, when two of them share a JSON
// name. It walks t afresh, remembering nothing; the caller owns the slice.
func JSONFields(t reflect.Type) []JSONField {
	fields, _ := structFields(t)
	out := make([]JSONField, len(fields))
	for i, f := range fields {
		out[i] = JSONField{Name: f.name, Field: f.sf, Index: f.index, Quoted: f.quoted}
		_, opts, _ := strings.Cut(f.sf.Tag.Get("json"), ",")
		for _, o := range strings.Split(opts, ",") {
			out[i].OmitEmpty = out[i].OmitEmpty || o == "omitempty"
			out[i].OmitZero = out[i].OmitZero || o == "omitzero"
		}
	}
	return out
}
