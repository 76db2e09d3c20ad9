package manifest

import (
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// side is which way data crosses the call: the client writes the input
// and reads the output, so what breaks it is opposite on each side.
type side int

const (
	input side = iota
	output
)

// effect is what a schema change does to the set of values the schema
// admits.
type effect int

const (
	neutral      effect = iota // nothing (a description)
	narrows                    // fewer values
	widens                     // more values
	incompatible               // some values gone, others new
)

// breaks reports whether a change of effect e on side s breaks a client:
// an input that admits fewer values refuses calls that worked, an output
// that admits more gives clients values they do not expect.
func (s side) breaks(e effect) bool {
	return e == incompatible || e == narrows && s == input || e == widens && s == output
}

// verb is what the schema does to values on side s.
func (s side) verb() string {
	if s == input {
		return "accepted"
	}
	return "returned"
}

// schemaKeys are the keywords Diff reads; any other keyword that changes
// (anyOf, $ref, ...) is a change it cannot classify, except the ones in
// ignoredKeys, which describe without constraining.
var (
	schemaKeys = []string{"type", "enum", "const", "format", "pattern", "properties", "required",
		"additionalProperties", "items", "description", "default", "uniqueItems", "multipleOf",
		"minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties",
		"maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"}
	ignoredKeys = []string{"title", "examples", "$schema", "$id", "$comment", "deprecated", "readOnly", "writeOnly"}
	lowerBounds = []string{"minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"}
	upperBounds = []string{"maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"}
)

// schema compares two JSON Schemas on side s.
func (d *differ) schema(path string, a, b json.RawMessage, s side) {
	av, _ := decode(orEmpty(a))
	bv, _ := decode(orEmpty(b))
	d.walk(path, av, bv, s)
}

func orEmpty(doc json.RawMessage) json.RawMessage {
	if len(doc) == 0 {
		return json.RawMessage(`{}`)
	}
	return doc
}

// change records a schema change whose severity follows from its effect.
func (d *differ) change(k Kind, e effect, s side, path, format string, args ...any) {
	d.add(k, s.breaks(e), path, format, args...)
}

func (d *differ) walk(path string, a, b any, s side) {
	am, aok := a.(map[string]any)
	bm, bok := b.(map[string]any)
	if !aok || !bok {
		if !reflect.DeepEqual(a, b) {
			d.change(SchemaChanged, incompatible, s, path, "schema changed from %s to %s; review it", encode(a), encode(b))
		}
		return
	}
	d.types(path, am, bm, s)
	d.enum(path, am, bm, s)
	d.bounds(path, am, bm, s)
	d.formats(path, am, bm, s)
	d.properties(path, am, bm, s)
	d.additional(path, am, bm, s)
	if ai, bi := am["items"], bm["items"]; ai != nil || bi != nil {
		d.walk(path+"/[]", orAny(ai), orAny(bi), s)
	}
	if !reflect.DeepEqual(am["description"], bm["description"]) {
		d.add(DescriptionChanged, false, path+"/description", "description changed")
	}
	if !reflect.DeepEqual(am["default"], bm["default"]) {
		d.add(DefaultChanged, false, path+"/default", "default changed from %s to %s", encode(am["default"]), encode(bm["default"]))
	}
	for _, k := range unionKeys(am, bm) {
		if slices.Contains(schemaKeys, k) || slices.Contains(ignoredKeys, k) || reflect.DeepEqual(am[k], bm[k]) {
			continue
		}
		d.change(SchemaChanged, incompatible, s, path, "%q changed from %s to %s; review it", k, encode(am[k]), encode(bm[k]))
	}
}

// orAny is a missing subschema as the empty schema, which admits anything.
func orAny(v any) any {
	if v == nil {
		return map[string]any{}
	}
	return v
}

func unionKeys(a, b map[string]any) []string {
	keys := slices.Collect(maps.Keys(a))
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

// typeSet is a schema's "type" as a set, nil when absent (any type).
func typeSet(m map[string]any) []string {
	switch t := m["type"].(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, x := range t {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		slices.Sort(out)
		return out
	}
	return nil
}

// within reports whether every type of a is admitted by b (an integer is
// a number).
func within(a, b []string) bool {
	in := make(map[string]bool, len(b))
	for _, t := range b {
		in[t] = true
	}
	for _, t := range a {
		if !in[t] && !(t == "integer" && in["number"]) {
			return false
		}
	}
	return true
}

func (d *differ) types(path string, a, b map[string]any, s side) {
	at, bt := typeSet(a), typeSet(b)
	show := func(ts []string) string {
		if ts == nil {
			return "any"
		}
		return strings.Join(ts, "|")
	}
	var k Kind
	var e effect
	switch {
	case at == nil && bt == nil, at != nil && bt != nil && within(at, bt) && within(bt, at):
		return
	case bt == nil, at != nil && within(at, bt):
		k, e = TypeWidened, widens
	case at == nil, within(bt, at):
		k, e = TypeNarrowed, narrows
	default:
		k, e = TypeChanged, incompatible
	}
	d.change(k, e, s, path+"/type", "type %s from %s to %s", strings.TrimPrefix(string(k), "type-"), show(at), show(bt))
}

// enumOf is a schema's allowed values, each as canonical JSON: the values
// of enum that also equal const when it has both (a value must pass each
// keyword, so "const": "EUR" beside ["EUR","USD"] refuses "USD"), enum's
// or const's alone otherwise. ok is false when any value is allowed.
func enumOf(m map[string]any) (values []string, ok bool) {
	e, hasEnum := m["enum"].([]any)
	c, hasConst := m["const"]
	switch {
	case hasEnum && hasConst:
		want := string(encode(c))
		values = []string{}
		for _, v := range e {
			if string(encode(v)) == want {
				return []string{want}, true
			}
		}
		return values, true // nothing passes both
	case hasEnum:
		for _, v := range e {
			values = append(values, string(encode(v)))
		}
		return values, true
	case hasConst:
		return []string{string(encode(c))}, true
	}
	return nil, false
}

func (d *differ) enum(path string, a, b map[string]any, s side) {
	av, aok := enumOf(a)
	bv, bok := enumOf(b)
	p := path + "/enum"
	switch {
	case !aok && !bok:
	case !aok:
		d.change(EnumNarrowed, narrows, s, p, "now limited to %s", listOrNone(bv))
	case !bok:
		d.change(EnumWidened, widens, s, p, "no longer limited to %s", listOrNone(av))
	default:
		if gone := minus(av, bv); len(gone) > 0 {
			d.change(EnumNarrowed, narrows, s, p, "%s no longer %s", strings.Join(gone, ", "), s.verb())
		}
		if added := minus(bv, av); len(added) > 0 {
			d.change(EnumWidened, widens, s, p, "%s now %s too", strings.Join(added, ", "), s.verb())
		}
	}
}

// listOrNone lists values, or says there are none: an enum and a const
// that share no value admit nothing.
func listOrNone(values []string) string {
	if len(values) == 0 {
		return "no value at all"
	}
	return strings.Join(values, ", ")
}

// number reads a bound; ok is false when it is absent or not a number.
func number(v any) (float64, bool) {
	n, isNum := v.(json.Number)
	if !isNum {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(n), 64)
	return f, err == nil
}

func (d *differ) bounds(path string, a, b map[string]any, s side) {
	check := func(key string, tighter func(x, y float64) bool) {
		av, bv := a[key], b[key]
		if reflect.DeepEqual(av, bv) {
			return
		}
		p := path + "/" + key
		x, xok := number(av)
		y, yok := number(bv)
		switch {
		case av == nil && yok:
			d.change(RangeNarrowed, narrows, s, p, "%s %s added", key, encode(bv))
		case bv == nil && xok:
			d.change(RangeWidened, widens, s, p, "%s %s removed", key, encode(av))
		case xok && yok && tighter(x, y):
			d.change(RangeNarrowed, narrows, s, p, "%s tightened from %s to %s", key, encode(av), encode(bv))
		case xok && yok:
			d.change(RangeWidened, widens, s, p, "%s loosened from %s to %s", key, encode(av), encode(bv))
		default:
			d.change(SchemaChanged, incompatible, s, p, "%s changed from %s to %s; review it", key, encode(av), encode(bv))
		}
	}
	for _, k := range lowerBounds {
		check(k, func(x, y float64) bool { return y > x })
	}
	for _, k := range upperBounds {
		check(k, func(x, y float64) bool { return y < x })
	}
	// Any change of a divisor can refuse values that passed.
	check("multipleOf", func(x, y float64) bool { return true })
	au, _ := a["uniqueItems"].(bool)
	bu, _ := b["uniqueItems"].(bool)
	switch {
	case !au && bu:
		d.change(RangeNarrowed, narrows, s, path+"/uniqueItems", "items must now be unique")
	case au && !bu:
		d.change(RangeWidened, widens, s, path+"/uniqueItems", "items need no longer be unique")
	}
}

func (d *differ) formats(path string, a, b map[string]any, s side) {
	for _, key := range []string{"format", "pattern"} {
		av, bv := a[key], b[key]
		p := path + "/" + key
		switch {
		case reflect.DeepEqual(av, bv):
		case bv == nil:
			d.change(FormatRelaxed, widens, s, p, "%s %s removed", key, encode(av))
		case av == nil:
			d.change(FormatTightened, narrows, s, p, "%s %s added", key, encode(bv))
		default:
			// Two formats or patterns cannot be ordered: the new one may
			// refuse what the old accepted.
			d.change(FormatTightened, incompatible, s, p, "%s changed from %s to %s", key, encode(av), encode(bv))
		}
	}
}

// required is the set of names a schema requires.
func required(m map[string]any) map[string]bool {
	out := map[string]bool{}
	if r, ok := m["required"].([]any); ok {
		for _, x := range r {
			if name, ok := x.(string); ok {
				out[name] = true
			}
		}
	}
	return out
}

func closed(m map[string]any) bool { return m["additionalProperties"] == false }

// unnamed is the schema a property that "properties" does not name must
// pass: additionalProperties' (the empty schema when absent or true), nil
// when the object is closed. When patternProperties or
// unevaluatedProperties may also rule on the name, it is the empty
// schema: Diff does not match patterns, and the empty schema makes any
// constraint on the name count as new.
func unnamed(m map[string]any) any {
	if m["patternProperties"] != nil || m["unevaluatedProperties"] != nil {
		return map[string]any{}
	}
	switch v := m["additionalProperties"].(type) {
	case nil, bool:
		if v == false {
			return nil
		}
		return map[string]any{}
	default:
		return v
	}
}

// properties compares every name either schema rules on: those under
// "properties" and those "required" lists, named under "properties" or
// not (a required name the schema does not describe still refuses calls
// without it).
func (d *differ) properties(path string, a, b map[string]any, s side) {
	ap, _ := a["properties"].(map[string]any)
	bp, _ := b["properties"].(map[string]any)
	areq, breq := required(a), required(b)
	names := map[string]bool{}
	for _, set := range []map[string]bool{areq, breq} {
		for n := range set {
			names[n] = true
		}
	}
	for n := range ap {
		names[n] = true
	}
	for n := range bp {
		names[n] = true
	}
	for _, name := range slices.Sorted(maps.Keys(names)) {
		p := path + "/" + name
		av, inA := ap[name]
		bv, inB := bp[name]
		wasReq, isReq := areq[name], breq[name]
		switch {
		case inA && !inB:
			// the field's removal, below, says it all
		case !wasReq && isReq && !inA && s == input:
			d.change(RequiredAdded, narrows, s, p, "new required field %q: calls without it are refused", name)
		case !wasReq && isReq && !inA:
			d.change(RequiredAdded, narrows, s, p, "new field %q, always returned", name)
		case !wasReq && isReq && s == input:
			d.change(RequiredAdded, narrows, s, p, "field %q is now required: calls without it are refused", name)
		case !wasReq && isReq:
			d.change(RequiredAdded, narrows, s, p, "field %q is now always returned", name)
		case wasReq && !isReq && s == input:
			d.change(RequiredRemoved, widens, s, p, "field %q is now optional", name)
		case wasReq && !isReq:
			d.change(RequiredRemoved, widens, s, p, "field %q may now be missing: clients that read it must cope", name)
		}
		switch {
		case inA && !inB:
			if s == input {
				fate := "ignored"
				if closed(b) {
					fate = "refused"
				}
				d.change(FieldRemoved, narrows, s, p, "field %q removed: calls that send it are %s", name, fate)
			} else {
				d.change(FieldRemoved, widens, s, p, "field %q removed: clients that read it get nothing", name)
			}
		case !inA && inB:
			if !isReq || wasReq {
				d.change(FieldAdded, neutral, s, p, "new optional field %q", name)
			}
			// On an open object the name was already accepted, with the
			// values the unnamed schema let through: the new schema may
			// refuse some. (A client ignores a new output field, and a
			// newly required one is already breaking.)
			if old := unnamed(a); old != nil && s == input && (!isReq || wasReq) {
				d.walk(p, old, bv, s)
			}
		case inA && inB:
			d.walk(p, av, bv, s)
		}
	}
}

func (d *differ) additional(path string, a, b map[string]any, s side) {
	av, bv := a["additionalProperties"], b["additionalProperties"]
	p := path + "/additionalProperties"
	switch {
	case reflect.DeepEqual(av, bv):
	case !closed(a) && closed(b):
		d.change(ObjectClosed, narrows, s, p, "fields the schema does not name are no longer %s", s.verb())
	case closed(a) && !closed(b):
		d.change(ObjectOpened, widens, s, p, "fields the schema does not name are now %s", s.verb())
	default:
		d.walk(path+"/*", orAny(av), orAny(bv), s)
	}
}
