package schema

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/swaggest/jsonschema-go"
)

// schemaMode selects between the two kinds of schema this package emits.
type schemaMode int

const (
	// modeInput: what a call may send. Closed objects, validate rules
	// mirrored, no null (an optional property is simply left out).
	modeInput schemaMode = iota
	// modeOutput: what a handler returns. Open objects, null where
	// encoding/json writes null, required only where validate says so.
	modeOutput
)

// defNames are the definition names of one Validator's schemas: one per Go
// type, unique among them, so that the $defs of several of its Codecs can
// be merged into one schema without clashes.
type defNames struct {
	byType map[reflect.Type]string
	types  map[string]reflect.Type
}

// defNameOf is the definition name of t, given on first use. Callers hold
// v.mu.
func (v *Validator) defNameOf(t reflect.Type, _ string) string {
	if n, ok := v.names.byType[t]; ok {
		return n
	}
	base := strings.Map(func(r rune) rune {
		if r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) {
			return r
		}
		return '_'
	}, t.Name())
	if base == "" {
		base = "Type"
	}
	name := base
	for i := 2; v.names.types[name] != nil; i++ {
		name = base + strconv.Itoa(i)
	}
	v.names.byType[t], v.names.types[name] = name, t
	return name
}

// builtSchema is a schema tree plus the recursive definitions it refers to.
type builtSchema struct {
	root     *node
	defNames []string // kept definitions, in first-use order
	defs     map[string]*node
}

// schemaBuilder turns swaggest's output into this package's schema: named
// definitions inlined unless recursive, properties in declaration order,
// validate rules mirrored, required lists computed, deterministic key order.
type schemaBuilder struct {
	v        *Validator // modeInput: the validator of the Codec being built
	mode     schemaMode
	root     reflect.Type
	rootName string
	raw      map[string]*node // swaggest's definitions, untouched
	keep     map[string]bool  // recursive definitions: stay in $defs
	out      builtSchema
	// redacted says which output properties a presenter replaces or
	// removes (output_redact.go); nil for none.
	redacted Redactions
}

// buildSchema reflects struct type t with v's reflector and definition
// names; in modeInput, v also decides which properties are required.
// Callers hold v.mu.
func buildSchema(v *Validator, t reflect.Type, mode schemaMode) builtSchema {
	return buildSchemaWith(v, t, mode, nil)
}

// buildSchemaWith is buildSchema with the output properties redacted
// says are redacted.
func buildSchemaWith(v *Validator, t reflect.Type, mode schemaMode, redacted Redactions) builtSchema {
	s, err := v.reflector.Reflect(reflect.New(t).Interface(),
		jsonschema.DefinitionsPrefix("#/$defs/"),
		jsonschema.ProcessWithoutTags,
		jsonschema.InterceptDefName(v.defNameOf),
	)
	if err != nil {
		panic(fmt.Sprintf("schema: struct %s: %v", typeName(t), err))
	}
	raw, err := json.Marshal(s)
	if err != nil {
		panic(fmt.Sprintf("schema: struct %s: %v", typeName(t), err))
	}
	tree := mustParseNode(raw)
	b := &schemaBuilder{
		v:        v,
		mode:     mode,
		root:     t,
		rootName: v.defNameOf(t, ""),
		raw:      map[string]*node{},
		keep:     map[string]bool{},
		out:      builtSchema{defs: map[string]*node{}},
		redacted: redacted,
	}
	if defs := tree.obj("definitions"); defs != nil {
		for i, k := range defs.keys {
			b.raw[k] = defs.vals[i].(*node)
		}
		tree.del("definitions")
	}
	b.raw[b.rootName] = tree.clone()
	b.findRecursive()
	b.out.root = b.convert(tree, t)
	return b.out
}

// refName returns the definition a $ref points to ("#" is the root).
func (b *schemaBuilder) refName(ref string) string {
	if ref == "#" {
		return b.rootName
	}
	return strings.TrimPrefix(ref, "#/$defs/")
}

// findRecursive marks the definitions that can reach themselves: only those
// need $defs; every other one is inlined where it is used.
func (b *schemaBuilder) findRecursive() {
	edges := map[string][]string{}
	for name, n := range b.raw {
		walkRefs(n, func(ref string) { edges[name] = append(edges[name], b.refName(ref)) })
	}
	for name := range b.raw {
		seen := map[string]bool{}
		stack := slices.Clone(edges[name])
		for len(stack) > 0 {
			cur := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if cur == name {
				b.keep[name] = true
				break
			}
			if !seen[cur] {
				seen[cur] = true
				stack = append(stack, edges[cur]...)
			}
		}
	}
}

func walkRefs(v any, fn func(string)) {
	switch v := v.(type) {
	case *node:
		for i, k := range v.keys {
			if s, ok := v.vals[i].(string); ok && k == "$ref" {
				fn(s)
			} else {
				walkRefs(v.vals[i], fn)
			}
		}
	case []any:
		for _, e := range v {
			walkRefs(e, fn)
		}
	}
}

// convert rewrites schema n of Go type t in place and returns it.
func (b *schemaBuilder) convert(n *node, t reflect.Type) *node {
	if ref := n.str("$ref"); ref != "" {
		return b.convertRef(n, ref)
	}
	n.del("$schema")
	n.del("$id")
	removeNull(n)
	t = deref(t)
	switch {
	case t.Kind() == reflect.Struct && n.str("type") == "object":
		b.convertObject(n, t)
	case (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) && n.obj("items") != nil:
		items := b.convert(n.obj("items"), t.Elem())
		if b.mode == modeOutput && nilable(t.Elem()) {
			items = addNull(items)
		}
		n.set("items", items)
	case t.Kind() == reflect.Map && n.obj("additionalProperties") != nil:
		ap := b.convert(n.obj("additionalProperties"), t.Elem())
		if b.mode == modeOutput && nilable(t.Elem()) {
			ap = addNull(ap)
		}
		n.set("additionalProperties", ap)
	}
	numericEnum(n)
	if b.mode == modeInput {
		intBounds(n, t)
		if t.Kind() == reflect.Array && !n.has("maxItems") {
			n.set("maxItems", json.Number(strconv.Itoa(t.Len()))) // Decode refuses more
		}
	}
	n.sortKeywords()
	return n
}

// convertRef inlines a non-recursive definition (with the annotations the
// referring property added, such as its description), or keeps a $ref to a
// recursive one. Draft-07 ignores keywords beside $ref, so those go beside an
// allOf that holds the $ref: both drafts then read the same thing.
func (b *schemaBuilder) convertRef(n *node, ref string) *node {
	name := b.refName(ref)
	def, ok := b.raw[name]
	if !ok {
		panic(fmt.Sprintf("schema: struct %s: internal error: unknown $ref %q", typeName(b.root), ref))
	}
	var target *node
	if b.keep[name] {
		b.ensureDef(name)
		target = &node{}
		target.set("$ref", "#/$defs/"+name)
	} else {
		target = b.convert(def.clone(), b.v.names.types[name])
	}
	if n.len() == 1 {
		return target
	}
	target = refWrapped(target)
	for i, k := range n.keys {
		if k != "$ref" && k != "type" {
			target.set(k, cloneValue(n.vals[i]))
		}
	}
	target.sortKeywords()
	return target
}

// ensureDef converts recursive definition name once into the output $defs.
func (b *schemaBuilder) ensureDef(name string) {
	if _, done := b.out.defs[name]; done {
		return
	}
	b.out.defs[name] = nil // placeholder: a definition may refer to itself
	b.out.defNames = append(b.out.defNames, name)
	b.out.defs[name] = b.convert(b.raw[name].clone(), b.v.names.types[name])
}

// convertObject orders a struct's properties as declared, converts each with
// its Go type, mirrors validate rules, and sets required and closedness.
func (b *schemaBuilder) convertObject(n *node, t reflect.Type) {
	fields, _ := b.v.fieldsOf(t)
	var si *structInfo
	if b.mode == modeInput {
		si = b.v.infoOf(t)
	}
	old := n.obj("properties")
	if old == nil {
		old = &node{}
	}
	props := &node{}
	var required []any
	for i := range fields {
		f := &fields[i]
		p := old.obj(f.name)
		if p == nil {
			p = &node{}
		}
		p = b.convert(p, f.typ())
		dropNameEcho(p, f.name)
		switch b.mode {
		case modeInput:
			applyRules(p, f.typ(), f.rules.levels, b.v, true)
			p = b.inputExtras(p, si, i)
			dropImpliedLengths(p)
			if si.required[i] {
				required = append(required, f.name)
			}
		case modeOutput:
			if r, ok := b.redacted.of(t, f.name); ok { // absent from required: a redacted field may be left out
				if !r.Omit {
					props.set(f.name, redactedProperty(p, r.Marker))
				}
				continue
			}
			if f.quoted && (p.str("type") == "integer" || p.str("type") == "number" || p.str("type") == "boolean") {
				q := &node{}
				q.set("type", "string") // encoding/json writes the value inside a string
				if d := p.str("description"); d != "" {
					q.set("description", d)
				}
				p = q
			}
			if nilable(f.typ()) && !f.omitEmpty {
				p = addNull(p)
			}
			if f.rules.has("required") || f.sf.Tag.Get("required") == "true" {
				required = append(required, f.name)
			}
		}
		props.set(f.name, p)
	}
	n.set("properties", props)
	if len(required) > 0 {
		n.set("required", required)
	} else {
		n.del("required")
	}
	if b.mode == modeInput {
		n.set("additionalProperties", false)
		applyConditionals(n, si)
	}
}

// inputExtras adds to property schema p of field i what only an input
// schema says: the default Decode applies, and the conditional rules in
// words.
func (b *schemaBuilder) inputExtras(p *node, si *structInfo, i int) *node {
	if d := si.defaults[i]; d != nil {
		v, err := parseNode([]byte(d.literal))
		if err != nil {
			panic("schema: internal error: " + err.Error())
		}
		p = refWrapped(p)
		p.set("default", v)
	}
	var notes []string
	for _, c := range si.conds {
		if c.subject == i {
			notes = append(notes, c.note())
		}
	}
	if len(notes) > 0 {
		p = refWrapped(p)
		addNotes(p, notes)
	}
	p.sortKeywords()
	return p
}
