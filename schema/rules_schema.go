package schema

import (
	"encoding/json"
	"math/big"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// How validate rules show in the schema. A rule JSON Schema can state
// becomes keywords (min → minimum or minLength, oneof → enum, email →
// format, alpha → pattern, ne → not/const...); every other rule, built-in
// (printascii, excludes, gtfield) or custom without a schema mapping, is
// stated in the description, in the words of its error message. No rule
// is enforced without being stated.

// levelCtx is what mapping the rules of one level needs.
type levelCtx struct {
	v    *Validator
	t    reflect.Type // the level's Go type, pointers removed
	ptr  bool         // the value is behind a pointer
	kind string       // the schema's JSON type at this level; "" when the rules cannot be mirrored (time.Time, any)
	top  bool         // the field itself, whose conditional rules conditionals states
}

// applyRules mirrors a field's validate rules into its schema n, level by
// level: the field first, then "items" or "additionalProperties" for each
// dive. top says n is a struct field's own schema.
func applyRules(n *node, t reflect.Type, levels []ruleLevel, v *Validator, top bool) {
	ptr := t.Kind() == reflect.Pointer
	t = deref(t)
	if len(levels) == 0 || n.has("$ref") {
		return
	}
	ctx := levelCtx{v: v, t: t, ptr: ptr, kind: schemaKind(n), top: top}
	if t == timeType || (t.Kind() == reflect.Slice && ctx.kind == "string") {
		ctx.kind = "" // time: compared with "now"; []byte: its length is not the base64 text's
	}
	addNotes(n, applyLevel(n, ctx, levels[0].rules))
	if len(levels) < 2 {
		return
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		if items := n.obj("items"); items != nil {
			applyRules(items, t.Elem(), levels[1:], v, false)
			items.sortKeywords()
		}
	case reflect.Map:
		if ap := n.obj("additionalProperties"); ap != nil {
			applyRules(ap, t.Elem(), levels[1:], v, false)
			ap.sortKeywords()
		}
		if keys := levels[1].keys; len(keys) > 0 && t.Key().Kind() == reflect.String {
			pn := &node{}
			pn.set("type", "string")
			notes := applyLevel(pn, levelCtx{v: v, t: t.Key(), kind: "string"}, keys)
			pn.sortKeywords()
			n.set("propertyNames", pn)
			for i := range notes {
				notes[i] = "Keys: " + notes[i]
			}
			addNotes(n, notes)
		}
	}
}

// addNotes appends notes to n's description.
func addNotes(n *node, notes []string) {
	if len(notes) > 0 {
		n.set("description", joinNote(n.str("description"), strings.Join(notes, " ")))
	}
}

// applyLevel states rules in n and returns the notes for those it cannot.
func applyLevel(n *node, ctx levelCtx, rules []rule) []string {
	var notes []string
	for _, r := range rules {
		switch {
		case r.tag == "omitempty" || r.tag == "omitnil" || r.tag == "omitzero" || r.tag == "-":
			continue
		case ctx.top && isCondTag(r.tag):
			continue // conditionals states it, in the object and the description
		case r.or:
			if !mapAlternatives(n, ctx, r) {
				notes = append(notes, ctx.note(r))
			}
			continue
		}
		if rs := ctx.v.ruleSchemas[r.tag]; rs != nil {
			if rs.apply(n, r.param) {
				if rs.note != "" {
					notes = append(notes, ctx.sentence(rs.noteFor(r.param)))
				}
				continue
			}
			if rs.note != "" {
				notes = append(notes, ctx.sentence(rs.noteFor(r.param)))
				continue
			}
		}
		if !mapRule(n, ctx, r) {
			notes = append(notes, ctx.note(r))
		}
	}
	return notes
}

func isCondTag(tag string) bool {
	_, ok := condSpecs[tag]
	return ok
}

// note is the sentence that states rule r in a description: its error
// message, as a model would read it on a refusal.
func (ctx levelCtx) note(r rule) string {
	tag, param := r.tag, r.param
	if r.or {
		param = ""
	}
	var custom map[string]string
	if ctx.v != nil {
		custom = ctx.v.messages
	}
	return ctx.sentence(ruleMessage(tag, param, ctx.t.Kind(), builtin, custom))
}

// sentence capitalises s and ends it with a period.
func (ctx levelCtx) sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return s
	}
	r, size := utf8.DecodeRuneInString(s)
	s = string(unicode.ToUpper(r)) + s[size:]
	if !strings.HasSuffix(s, ".") && !strings.HasSuffix(s, "!") && !strings.HasSuffix(s, "?") {
		s += "."
	}
	return s
}

// mapAlternatives states "a|b" as anyOf when every alternative has keywords.
func mapAlternatives(n *node, ctx levelCtx, r rule) bool {
	var alts []any
	for _, part := range strings.Split(r.tag, "|") {
		name, param, _ := strings.Cut(part, "=")
		alt := &node{}
		if !mapRule(alt, ctx, rule{tag: name, param: unescapeParam(param)}) || alt.len() == 0 {
			return false
		}
		alt.sortKeywords()
		alts = append(alts, alt)
	}
	addConstraint(n, "anyOf", alts)
	return true
}

// mapRule states one rule in n as keywords, or reports that it cannot.
func mapRule(n *node, ctx levelCtx, r rule) bool {
	kind := ctx.kind
	kw, bounded := boundKeywords[kind]
	numeric := kind == "integer" || kind == "number"
	switch r.tag {
	case "required":
		switch {
		case ctx.t == timeType:
			return false // the zero time is refused: said in words
		case kind == "string" && !ctx.ptr:
			// validator's required refuses "": the schema says so.
			setBound(n, "minLength", json.Number("1"), true)
		}
		return true // presence: the required list; null is refused
	case "min", "gte", "max", "lte", "gt", "lt", "len":
		if !bounded {
			return false
		}
		lower := r.tag == "min" || r.tag == "gte" || r.tag == "gt" || r.tag == "len"
		upper := r.tag == "max" || r.tag == "lte" || r.tag == "lt" || r.tag == "len"
		exclusive := r.tag == "gt" || r.tag == "lt"
		if numeric {
			num, ok := numberParam(r.param, kind)
			if !ok {
				return false
			}
			switch {
			case exclusive && lower:
				setBound(n, "exclusiveMinimum", num, true)
			case exclusive:
				setBound(n, "exclusiveMaximum", num, false)
			default:
				if lower {
					setBound(n, "minimum", num, true)
				}
				if upper {
					setBound(n, "maximum", num, false)
				}
			}
			return true
		}
		c, err := strconv.ParseInt(r.param, 0, 64)
		if err != nil {
			return false
		}
		if exclusive && lower {
			c++
		} else if exclusive {
			c--
		}
		if c < 0 {
			return !upper // a count below zero: no count passes an upper bound
		}
		if lower {
			setBound(n, kw[0], json.Number(strconv.FormatInt(c, 10)), true)
		}
		if upper {
			setBound(n, kw[1], json.Number(strconv.FormatInt(c, 10)), false)
		}
		return true
	case "eq", "ne":
		var c any
		switch {
		case numeric:
			num, ok := numberParam(r.param, kind)
			if !ok {
				return false
			}
			c = num
		case kind == "string":
			c = r.param
		case kind == "boolean":
			b, err := strconv.ParseBool(r.param)
			if err != nil {
				return false
			}
			c = b
		case (kind == "array" || kind == "object") && r.tag == "eq":
			return mapRule(n, ctx, rule{tag: "len", param: r.param})
		default:
			return false
		}
		if r.tag == "eq" {
			addConstraint(n, "const", c)
		} else {
			addConstraint(n, "not", constNode(c))
		}
		return true
	case "oneof":
		var enum []any
		for _, v := range oneOfValues(r.param) {
			switch {
			case kind == "integer" && validNumber([]byte(v)):
				enum = append(enum, json.Number(v))
			case kind == "string":
				enum = append(enum, v)
			}
		}
		if len(enum) == 0 || (kind != "integer" && kind != "string") {
			return false
		}
		addConstraint(n, "enum", enum)
		return true
	case "unique":
		if kind != "array" || r.param != "" {
			return false
		}
		if et := ctx.t.Elem(); et.Kind() == reflect.Pointer || !scalarGo(et) {
			return false // validator compares pointers, or structs as Go values
		}
		n.set("uniqueItems", true)
		return true
	}
	if kind != "string" {
		return false
	}
	if f, ok := ruleFormats[r.tag]; ok {
		addConstraint(n, "format", f)
		return true
	}
	if p, ok := rulePatterns[r.tag]; ok {
		addConstraint(n, "pattern", p)
		return true
	}
	switch r.tag {
	case "datetime":
		f := datetimeFormat(r.param)
		if f == "" {
			return false
		}
		addConstraint(n, "format", f)
	case "ip", "ip_addr":
		// JSON Schema has no format for "IPv4 or IPv6"; anyOf of the
		// two exact formats says precisely what validator's ip accepts.
		v4, v6 := &node{}, &node{}
		v4.set("format", "ipv4")
		v6.set("format", "ipv6")
		addConstraint(n, "anyOf", []any{v4, v6})
	case "startswith":
		addConstraint(n, "pattern", "^"+regexp.QuoteMeta(r.param))
	case "endswith":
		addConstraint(n, "pattern", regexp.QuoteMeta(r.param)+"$")
	case "contains":
		addConstraint(n, "pattern", regexp.QuoteMeta(r.param))
	default:
		return false
	}
	return true
}

// scalarGo reports whether t is a string, bool or number kind.
func scalarGo(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.String, reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return true
	}
	return false
}

// numberParam reads a rule parameter as validator reads it for the kind
// (an integer in any base strconv knows; a float) and writes it as JSON.
func numberParam(p, kind string) (json.Number, bool) {
	if kind == "integer" {
		if n, err := strconv.ParseInt(p, 0, 64); err == nil {
			return json.Number(strconv.FormatInt(n, 10)), true
		}
		if n, err := strconv.ParseUint(p, 0, 64); err == nil {
			return json.Number(strconv.FormatUint(n, 10)), true
		}
		return "", false
	}
	if validNumber([]byte(p)) {
		return json.Number(p), true
	}
	return "", false
}

func constNode(v any) *node {
	c := &node{}
	c.set("const", v)
	return c
}

// addConstraint sets keyword k to v, or, when n already has k, adds {k: v}
// to n's allOf: a schema holds one pattern, but validator checks both.
func addConstraint(n *node, k string, v any) {
	if !n.has(k) {
		n.set(k, v)
		return
	}
	extra := &node{}
	extra.set(k, v)
	list, _ := n.vals0("allOf").([]any)
	n.set("allOf", append(list, extra))
}

// setBound sets bound keyword k to num, or keeps the tighter of the two
// when n has one: validator checks every rule.
func setBound(n *node, k string, num json.Number, lower bool) {
	if old, ok := n.vals0(k).(json.Number); ok {
		a, okA := new(big.Rat).SetString(string(old))
		b, okB := new(big.Rat).SetString(string(num))
		if okA && okB {
			if c := b.Cmp(a); (lower && c <= 0) || (!lower && c >= 0) {
				return
			}
		}
	}
	n.set(k, num)
}

func deref(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

// schemaKind is the JSON type a schema's constraints apply to: what "min"
// means depends on it (minimum, minLength, minItems or minProperties).
func schemaKind(n *node) string {
	return n.str("type")
}

// bound keywords per JSON type: lower, upper.
var boundKeywords = map[string][2]string{
	"integer": {"minimum", "maximum"},
	"number":  {"minimum", "maximum"},
	"string":  {"minLength", "maxLength"},
	"array":   {"minItems", "maxItems"},
	"object":  {"minProperties", "maxProperties"},
}
