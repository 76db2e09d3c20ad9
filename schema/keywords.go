package schema

import (
	"encoding/json"
	"reflect"
	"strconv"
)

// Keyword fix-ups applied to every schema node: nulls, enums, bounds, $ref siblings.

// refWrapped returns n ready to take annotations: a bare {"$ref"} moves into
// an allOf, because draft-07 ignores every keyword beside $ref.
func refWrapped(n *node) *node {
	if !n.has("$ref") {
		return n
	}
	w := &node{}
	w.set("allOf", []any{n})
	return w
}

// nilable reports whether encoding/json writes null for a zero value of t.
func nilable(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
		return true
	}
	return false
}

// removeNull drops the "null" swaggest adds for pointers, slices and maps.
func removeNull(n *node) {
	switch ty := n.vals0("type").(type) {
	case []any:
		var kept []any
		for _, v := range ty {
			if v != "null" {
				kept = append(kept, v)
			}
		}
		switch len(kept) {
		case 0:
			n.del("type")
		case 1:
			n.set("type", kept[0])
		default:
			n.set("type", kept)
		}
	case string:
		if ty == "null" {
			n.del("type")
		}
	}
}

// addNull lets an output property be null, as encoding/json writes it.
func addNull(n *node) *node {
	switch ty := n.vals0("type").(type) {
	case string:
		n.set("type", []any{ty, "null"})
		return n
	case nil:
		if n.has("$ref") || n.has("allOf") {
			null := &node{}
			null.set("type", "null")
			w := &node{}
			w.set("anyOf", []any{n, null})
			return w
		}
	}
	return n // no type: already accepts null
}

func (n *node) vals0(k string) any {
	v, _ := n.get(k)
	return v
}

// numericEnum turns swaggest's string enum values ("1,2" from an enum tag)
// into numbers on numeric schemas, where strings could never match.
func numericEnum(n *node) {
	ty := n.str("type")
	if ty != "integer" && ty != "number" {
		return
	}
	enum, ok := n.vals0("enum").([]any)
	if !ok {
		return
	}
	out := make([]any, 0, len(enum))
	for _, v := range enum {
		if s, ok := v.(string); ok {
			if !validNumber([]byte(s)) {
				continue
			}
			v = json.Number(s)
		}
		out = append(out, v)
	}
	n.set("enum", out)
}

// intBounds states the range of a sized integer, which Decode enforces.
func intBounds(n *node, t reflect.Type) {
	if n.str("type") != "integer" {
		return
	}
	var lo, hi string
	switch t.Kind() {
	case reflect.Int8, reflect.Int16, reflect.Int32:
		bits := t.Bits()
		lo = strconv.FormatInt(-1<<(bits-1), 10)
		hi = strconv.FormatInt(1<<(bits-1)-1, 10)
	case reflect.Uint8, reflect.Uint16, reflect.Uint32:
		lo = "0"
		hi = strconv.FormatUint(1<<t.Bits()-1, 10)
	default:
		return
	}
	if !n.has("minimum") && !n.has("exclusiveMinimum") {
		n.set("minimum", json.Number(lo))
	}
	if !n.has("maximum") && !n.has("exclusiveMaximum") {
		n.set("maximum", json.Number(hi))
	}
}
