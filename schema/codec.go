package schema

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
)

// DefaultMaxBytes is the largest arguments document Decode reads when
// Limits.MaxBytes is zero.
const DefaultMaxBytes = 1 << 20 // 1 MiB

// DefaultMaxDepth is the deepest nesting of objects and arrays Decode reads
// when Limits.MaxDepth is zero.
const DefaultMaxDepth = 64

// Limits bound the work spent on one call's arguments, so that a hostile
// call costs no more than a legitimate one; zero fields mean the defaults.
type Limits struct{ MaxBytes, MaxDepth int }

func (l Limits) resolve() (maxBytes, maxDepth int) {
	maxBytes, maxDepth = l.MaxBytes, l.MaxDepth
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	if maxDepth <= 0 {
		maxDepth = DefaultMaxDepth
	}
	return maxBytes, maxDepth
}

// Codec is the compiled form of one Go input struct type for one Validator:
// its JSON Schema, its field list and its strict decoder and validator. It
// is built once per (Validator, type) by CodecFor, never changes afterwards,
// and is safe for concurrent use.
type Codec struct {
	typ    reflect.Type
	v      *Validator // validates decoded values and words its own rules' failures
	shape  *shape
	schema []byte
	fields []Field
	tree   builtSchema        // for Merge: the root node and its recursive $defs
	conds  map[condKey]string // the words of the conditional rules, for their refusals
	pass   *passCheck         // proves the common rules hold without the validator; nil: always ask it
	// hushed is whether a field tagged redact is among what it reads: the
	// decoder's own errors are then not echoed (echo.go).
	hushed bool
	raw    rawChecker // a hand-written schema (CodecFromSchema); nil for a struct
	// pending: a Codec that stands for a schema not given yet (Pending);
	// every use panics with this text.
	pending string
}

// Pending returns a Codec of type t that stands for a hand-written schema
// its owner has not supplied yet: Schema, Fields and Decode panic with
// problem, so that building a tool without it fails at build time, saying
// what to do.
func Pending(t reflect.Type, problem string) *Codec {
	return &Codec{typ: t, pending: problem}
}

// Field describes one top-level property of a Codec's schema, so that callers
// can describe or regroup properties without parsing the schema.
type Field struct {
	Name        string // JSON name
	Type        string // JSON Schema type: "string", "integer", "number", "boolean", "array", "object", or "" if any
	Required    bool   // listed in the schema's "required"; Decode reports it missing
	Description string // the property's own description
	// Title is the field's description tag when the schema leaves it out
	// for only repeating the field's name ("Due date" on due_date): what a
	// model reads in the name, a person reads better as a label, in a form
	// or as a prompt's argument. A title the field declares (its schema's
	// title) is its Title instead.
	Title  string
	Schema json.RawMessage // the property's own schema (a recursive type's $ref resolves in Codec.Schema's $defs)
}

// CodecFor returns the Codec of t, a struct type or a pointer to one, for
// DefaultValidator, building it on first use; later calls are a map lookup.
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
func CodecFor(t reflect.Type) *Codec {
	return defaultValidator().CodecFor(t)
}

// For is CodecFor for a type parameter: For[ListProjects]().
func For[T any]() *Codec {
	return defaultValidator().CodecFor(reflect.TypeFor[T]())
}

// CodecFor returns the Codec of t, a struct type or a pointer to one, whose
// rules v checks, building it on first use; later calls are a map lookup.
// It panics as the package-level CodecFor does; which rules exist, and so
// which fields are required, is v's to say.
func (v *Validator) CodecFor(t reflect.Type) *Codec {
	if t == nil {
		panic("schema: CodecFor(nil): want a struct type")
	}
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		panic(fmt.Sprintf("schema: CodecFor(%s): want a struct or a pointer to a struct", t))
	}
	if c, ok := v.codecs.Load(t); ok {
		return c.(*Codec)
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if c, ok := v.codecs.Load(t); ok {
		return c.(*Codec)
	}
	v.used = true // rules are frozen from now on: validator caches what it parses
	c := v.buildCodec(t)
	v.codecs.Store(t, c)
	return c
}

func (v *Validator) buildCodec(t reflect.Type) *Codec {
	si := v.infoOf(t)
	sh, structs := compileShape(v, t)
	c := &Codec{typ: t, v: v, shape: sh, conds: condPhrases(v, structs), pass: newPassCheck(t, v.foreign), hushed: sh.redacts()}
	c.tree = buildSchema(v, t, modeInput)
	root := c.tree.root.clone()
	if len(c.tree.defNames) > 0 {
		defs := &node{}
		for _, name := range c.tree.defNames {
			defs.set(name, c.tree.defs[name])
		}
		root.set("$defs", defs)
	}
	c.schema = root.marshal()
	props := c.tree.root.obj("properties")
	for i, f := range si.fields {
		p := props.obj(f.name)
		c.fields = append(c.fields, Field{
			Name:        f.name,
			Type:        fieldType(p),
			Required:    si.required[i],
			Description: p.str("description"),
			Title:       echoedTitle(f, p),
			Schema:      p.marshal(),
		})
	}
	return c
}

// fieldType is the single JSON type of property schema p, or "".
func fieldType(p *node) string {
	if t := p.str("type"); t != "" {
		return t
	}
	if p.has("$ref") || p.has("allOf") {
		return "object" // only struct types become $defs
	}
	return ""
}

// Type returns the struct type the Codec decodes into (never a pointer).
func (c *Codec) Type() reflect.Type { return c.typ }

// Schema returns the input JSON Schema: compact, with keys in a fixed order
// and properties in declaration order, so that it can be compared and cached
// byte for byte. The caller owns the returned copy.
func (c *Codec) Schema() json.RawMessage {
	if c.pending != "" {
		panic(c.pending)
	}
	return slices.Clone(c.schema)
}

// Fields returns the top-level properties in declaration order, embedded
// structs flattened as encoding/json flattens them. The caller owns the slice.
func (c *Codec) Fields() []Field {
	if c.pending != "" {
		panic(c.pending)
	}
	out := slices.Clone(c.fields)
	for i := range out {
		out[i].Schema = slices.Clone(out[i].Schema)
	}
	return out
}

// rawChecker checks a call against a hand-written schema (CodecFromSchema)
// and stores it. It is an interface so that the JSON Schema validator
// behind it is linked only into programs that call CodecFromSchema.
type rawChecker interface {
	decode(data []byte, dst any, msgs *Messages, maxDepth int, skip string) error
}
