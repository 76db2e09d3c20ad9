package schema

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// Conditional rules (required_if, excluded_with...) depend on other fields
// of the same struct. Each is stated twice: in the object's schema, where
// JSON Schema can say it (dependentRequired, if/then/else on a const), and
// in the property's description, in words a model reads ("Required when
// type is \"card\"."); a refusal names the other field with the same
// words.
//
// The validator reads the decoded struct, where an absent field holds its
// zero value or its default; so does the schema below: "kind is \"card\""
// holds when kind was sent as "card", or left out with "card" as its
// default.

// condSpec is what one conditional rule means: whether it requires the
// field or excludes it, and when.
type condSpec struct {
	need bool // required_*: the field must have a value; excluded_*: it must not
	// The condition: pairs (field value ...) compared with eq, or fields
	// tested for having a value (set) or not (!set); all or any of them.
	pairs, set, all bool
	unless          bool // pairs: the rule applies unless any pair holds
}

var condSpecs = map[string]condSpec{
	"required_if":          {need: true, pairs: true, all: true},
	"required_unless":      {need: true, pairs: true, unless: true},
	"excluded_if":          {pairs: true, all: true},
	"excluded_unless":      {pairs: true, unless: true},
	"required_with":        {need: true, set: true},
	"required_with_all":    {need: true, set: true, all: true},
	"required_without":     {need: true},
	"required_without_all": {need: true, all: true},
	"excluded_with":        {set: true},
	"excluded_with_all":    {set: true, all: true},
	"excluded_without":     {},
	"excluded_without_all": {all: true},
}

// condRule is one conditional rule of a field, resolved against its struct.
type condRule struct {
	tag, param string
	subject    int       // the field carrying the rule
	refs       []condRef // the fields the condition reads
	phrase     string    // the condition in words: `when type is "card"`
	clause     *node     // the schema saying it; nil: JSON Schema cannot (the description still does)
	depends    bool      // clause is a plain dependency: dependentRequired can say it
}

// condRef is one field a condition reads, with the value it is compared to
// (pairs only).
type condRef struct {
	field int
	value string
}

// conditionals resolves the conditional rules of every field of t. It
// panics, naming the field, when a rule names a field that is not a JSON
// property of the same struct, or excludes a field that has a default
// (it would never be absent).
func (v *Validator) conditionals(t reflect.Type, si *structInfo) []condRule {
	var out []condRule
	for i := range si.fields {
		f := &si.fields[i]
		for _, r := range f.rules.levels[0].rules {
			spec, ok := condSpecs[r.tag]
			if !ok {
				continue
			}
			if !spec.need && si.defaults[i] != nil {
				defPanic(f, "rule %q can require the field to be left out, but its default fills it in; remove one of them", r.tag)
			}
			c := condRule{tag: r.tag, param: r.param, subject: i}
			words := oneOfValues(r.param)
			if spec.pairs && len(words)%2 != 0 {
				defPanic(f, "rule %q needs field and value pairs, got %q", r.tag, r.param)
			}
			step := 1
			if spec.pairs {
				step = 2
			}
			for k := 0; k < len(words); k += step {
				ref := condRef{field: v.resolveField(si, f, r.tag, words[k])}
				if spec.pairs {
					ref.value = words[k+1]
				}
				c.refs = append(c.refs, ref)
			}
			if len(c.refs) == 0 {
				defPanic(f, "rule %q names no field", r.tag)
			}
			b := condBuilder{v: v, si: si}
			c.phrase = b.phrase(spec, c.refs)
			c.clause, c.depends = b.clause(spec, c)
			out = append(out, c)
		}
	}
	return out
}

// resolveField finds the JSON property of si that the Go field name, as
// validator resolves it from the struct declaring f, refers to.
func (v *Validator) resolveField(si *structInfo, f *fieldInfo, tag, name string) int {
	sf, ok := f.owner.FieldByName(name)
	if !ok {
		defPanic(f, "rule %q names field %q, which %s does not have (name a Go field of the same struct)",
			tag, name, typeName(f.owner))
	}
	index := append(slices.Clone(f.index[:len(f.index)-1]), sf.Index...)
	for j := range si.fields {
		if slices.Equal(si.fields[j].index, index) {
			return j
		}
	}
	defPanic(f, "rule %q names field %q, which is not a JSON property; the schema could not state the rule", tag, name)
	return -1
}

// condBuilder writes the schema and the words of conditional rules.
type condBuilder struct {
	v  *Validator
	si *structInfo
}

// phrase is the condition of a rule in words, with JSON names.
func (b condBuilder) phrase(spec condSpec, refs []condRef) string {
	names := make([]string, len(refs))
	for i, r := range refs {
		names[i] = b.si.fields[r.field].name
	}
	switch {
	case spec.pairs:
		parts := make([]string, len(refs))
		for i, r := range refs {
			parts[i] = b.isPhrase(r)
		}
		if spec.unless {
			return "unless " + strings.Join(parts, " or ")
		}
		return "when " + strings.Join(parts, " and ")
	case len(names) == 1 && spec.set:
		return "when " + names[0] + " is set"
	case len(names) == 1:
		return "when " + names[0] + " is not set"
	case spec.set && spec.all:
		return "when " + strings.Join(names, " and ") + " are set"
	case spec.set:
		return "when " + strings.Join(names, " or ") + " is set"
	case spec.all:
		return "when neither " + strings.Join(names, " nor ") + " is set"
	}
	return "when " + strings.Join(names, " or ") + " is not set"
}

// isPhrase is `type is "card"`, `count is 3`, or `owner is not set` for
// the validator's "nil".
func (b condBuilder) isPhrase(r condRef) string {
	f := &b.si.fields[r.field]
	if r.value == "nil" && nilable(f.typ()) {
		return f.name + " is not set"
	}
	if deref(f.typ()).Kind() == reflect.String {
		return f.name + " is " + strconv.Quote(r.value)
	}
	return f.name + " is " + r.value
}

// note is the sentence a conditional rule adds to its field's description.
func (c *condRule) note() string {
	if condSpecs[c.tag].need {
		return "Required " + c.phrase + "."
	}
	return "Must be left out " + c.phrase + "."
}

// clause is the schema of rule c, or nil when JSON Schema cannot state it
// exactly (a condition on a struct or a list's length); depends reports a
// clause that is a plain dependency of c's field on one other field's
// presence, which dependentRequired says more briefly.
func (b condBuilder) clause(spec condSpec, c condRule) (*node, bool) {
	var conseq *node
	if spec.need {
		conseq = b.hasValue(c.subject)
	} else {
		conseq = b.noValue(c.subject)
	}
	if conseq == nil {
		return nil, false
	}
	if conseq.len() == 0 {
		return &node{}, false // a default always satisfies it: nothing to say
	}
	preds := make([]*node, len(c.refs))
	for i, r := range c.refs {
		var p *node
		switch {
		case spec.pairs:
			p = b.equals(r.field, r.value)
		case spec.set:
			p = b.isSet(r.field)
		default:
			p = b.isUnset(r.field)
		}
		if p == nil {
			return nil, false
		}
		preds[i] = p
	}
	out := &node{}
	switch {
	case spec.unless:
		out.set("if", anyOf(preds))
		out.set("else", conseq)
	case spec.all:
		out.set("if", allOf(preds))
		out.set("then", conseq)
	default:
		out.set("if", anyOf(preds))
		out.set("then", conseq)
	}
	depends := spec.set && !spec.all && spec.need && onlyRequired(conseq)
	for _, p := range preds {
		depends = depends && onlyRequired(p)
	}
	return out, depends
}

// onlyRequired reports whether n is exactly {"required":[name]}.
func onlyRequired(n *node) bool {
	r, ok := n.vals0("required").([]any)
	return n.len() == 1 && ok && len(r) == 1
}

func allOf(ns []*node) *node {
	if len(ns) == 1 {
		return ns[0]
	}
	out := &node{}
	out.set("allOf", nodesAny(ns))
	return out
}

func anyOf(ns []*node) *node {
	if len(ns) == 1 {
		return ns[0]
	}
	out := &node{}
	out.set("anyOf", nodesAny(ns))
	return out
}

func nodesAny(ns []*node) []any {
	out := make([]any, len(ns))
	for i, n := range ns {
		out[i] = n
	}
	return out
}

// fieldForm is what the schema can say about the value of field i: its
// kind, whether it is behind a pointer (or a slice or map: nil when
// absent), its zero and absent values as JSON, and whether a sent zero is
// refused anyway.
type fieldForm struct {
	name        string
	nilable     bool   // pointer, slice or map: absent is nil
	scalar      bool   // string, bool or number, perhaps behind a pointer
	zero        any    // the JSON zero of a scalar: "", false or 0
	absent      string // what an absent field holds, as JSON: its default, its zero, or "nil"
	zeroRefused bool   // a non-pointer scalar whose rules refuse a sent zero
	kind        reflect.Kind
}

func (b condBuilder) form(i int) fieldForm {
	f := &b.si.fields[i]
	t := f.typ()
	bt := deref(t)
	ff := fieldForm{name: f.name, nilable: nilable(t), kind: bt.Kind()}
	switch bt.Kind() {
	case reflect.String:
		ff.scalar, ff.zero = true, ""
	case reflect.Bool:
		ff.scalar, ff.zero = true, false
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		ff.scalar, ff.zero = true, json.Number("0")
	}
	if bt == timeType || implements(bt, typeUnmarshaler) || implements(bt, typeTextUnmarshaler) {
		ff.scalar = false
	}
	switch d := b.si.defaults[i]; {
	case d != nil:
		ff.absent = d.literal
	case ff.nilable:
		ff.absent = "nil"
	case ff.scalar:
		ff.absent = string(mustMarshal(ff.zero))
	}
	if ff.scalar && !ff.nilable {
		zero := reflect.Zero(t).Interface()
		ff.zeroRefused = b.v.firstFailure(zero, ruleTag(f.rules.levels[0].rules, false)) != nil
	}
	return ff
}

func mustMarshal(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic("schema: internal error: " + err.Error())
	}
	return b
}

// absentHasValue reports whether an absent field holds a value validator's
// required would accept: a default other than the zero value.
func (ff fieldForm) absentHasValue() bool {
	if ff.absent == "nil" {
		return false
	}
	if !ff.scalar {
		return false
	}
	return ff.absent != string(mustMarshal(ff.zero))
}

// equals is the schema of "field i equals value", as validator compares it
// (requireCheckFieldValue), or nil when the field is not a scalar.
func (b condBuilder) equals(i int, value string) *node {
	ff := b.form(i)
	if !ff.scalar {
		return nil
	}
	if ff.nilable && value == "nil" {
		if ff.absent != "nil" {
			return falseNode() // a default: never nil
		}
		return notRequired(ff.name)
	}
	c, lit := b.constOf(i, ff, value)
	n := &node{}
	props := &node{}
	cn := &node{}
	cn.set("const", c)
	props.set(ff.name, cn)
	n.set("properties", props)
	if ff.absent != lit {
		n.set("required", []any{ff.name})
	}
	return n
}

// constOf is value as validator reads it for the field's kind, as a schema
// const and as JSON text.
func (b condBuilder) constOf(i int, ff fieldForm, value string) (any, string) {
	f := &b.si.fields[i]
	bad := func(err error) {
		defPanic(f, "a conditional rule compares the field with %q, which is not a %s: %v", value, ff.kind, err)
	}
	switch ff.kind {
	case reflect.String:
		return value, jsonString(value)
	case reflect.Bool:
		b := value == "true"
		return b, strconv.FormatBool(b)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, err := strconv.ParseInt(value, 0, 64)
		if err != nil {
			bad(err)
		}
		s := strconv.FormatInt(n, 10)
		return json.Number(s), s
	case reflect.Float32, reflect.Float64:
		x, err := strconv.ParseFloat(value, deref(f.typ()).Bits())
		if err != nil {
			bad(err)
		}
		s := strconv.FormatFloat(x, 'g', -1, 64)
		if !validNumber([]byte(s)) {
			bad(fmt.Errorf("not a finite number"))
		}
		return json.Number(s), s
	}
	n, err := strconv.ParseUint(value, 0, 64)
	if err != nil {
		bad(err)
	}
	s := strconv.FormatUint(n, 10)
	return json.Number(s), s
}

// isSet is the schema of "field i has a value" in the sense of the with
// rules (not nil; not the zero value), or nil when it cannot be said.
func (b condBuilder) isSet(i int) *node {
	ff := b.form(i)
	switch {
	case ff.nilable:
		if ff.absent != "nil" {
			return &node{} // a default: never nil
		}
		return required(ff.name)
	case !ff.scalar:
		return nil
	}
	n := &node{}
	if !ff.zeroRefused {
		props := &node{}
		props.set(ff.name, notConst(ff.zero))
		n.set("properties", props)
	}
	if !ff.absentHasValue() {
		n.set("required", []any{ff.name})
	}
	return n
}

// isUnset is the negation of isSet.
func (b condBuilder) isUnset(i int) *node {
	ff := b.form(i)
	switch {
	case ff.nilable:
		if ff.absent != "nil" {
			return falseNode()
		}
		return notRequired(ff.name)
	case !ff.scalar:
		return nil
	}
	if ff.zeroRefused {
		// Only an absent field can be zero.
		if ff.absentHasValue() {
			return falseNode()
		}
		return notRequired(ff.name)
	}
	n := &node{}
	props := &node{}
	c := &node{}
	c.set("const", ff.zero)
	props.set(ff.name, c)
	n.set("properties", props)
	if ff.absentHasValue() {
		n.set("required", []any{ff.name})
	}
	return n
}

// hasValue is the schema of validator's required on field i (not nil; not
// the zero value; a pointer to a zero value counts), or nil.
func (b condBuilder) hasValue(i int) *node {
	ff := b.form(i)
	if !ff.nilable && !ff.scalar {
		return nil
	}
	if ff.nilable {
		if ff.absent != "nil" {
			return &node{}
		}
		return required(ff.name)
	}
	return b.isSet(i)
}

// noValue is the schema of "field i has no value": absent, or its zero.
func (b condBuilder) noValue(i int) *node {
	ff := b.form(i)
	if !ff.nilable && !ff.scalar {
		return nil
	}
	n := &node{}
	props := &node{}
	if ff.nilable || ff.zeroRefused {
		props.set(ff.name, false)
	} else {
		c := &node{}
		c.set("const", ff.zero)
		props.set(ff.name, c)
	}
	n.set("properties", props)
	return n
}

func required(name string) *node {
	n := &node{}
	n.set("required", []any{name})
	return n
}

func notRequired(name string) *node {
	n := &node{}
	n.set("not", required(name))
	return n
}

func notConst(v any) *node {
	c := &node{}
	c.set("const", v)
	n := &node{}
	n.set("not", c)
	return n
}

// falseNode is a schema nothing satisfies.
func falseNode() *node {
	n := &node{}
	n.set("not", &node{})
	return n
}

// applyConditionals writes the clauses of si's conditional rules into the
// object schema n: dependencies into dependentRequired, the others as
// if/then/else, in allOf when there are several.
func applyConditionals(n *node, si *structInfo) {
	var deps *node
	var clauses []any
	for _, c := range si.conds {
		switch {
		case c.clause == nil || c.clause.len() == 0:
		case c.depends:
			if deps == nil {
				deps = &node{}
			}
			subject := si.fields[c.subject].name
			for _, r := range c.refs {
				name := si.fields[r.field].name
				list, _ := deps.vals0(name).([]any)
				if !slices.Contains(list, any(subject)) {
					deps.set(name, append(list, subject))
				}
			}
		default:
			clauses = append(clauses, c.clause)
		}
	}
	if deps != nil {
		n.set("dependentRequired", deps)
	}
	switch len(clauses) {
	case 0:
	case 1:
		for i, k := range clauses[0].(*node).keys {
			n.set(k, clauses[0].(*node).vals[i])
		}
	default:
		n.set("allOf", clauses)
	}
}

// condKey finds the words of a failed conditional rule from what validator
// reports of it.
type condKey struct {
	goField, jsonField, tag, param string
}

// condPhrases gathers the conditions, in words, of the conditional rules of
// the given struct types. Two rules that validator would report alike but
// that read differently (the same field and rule in two structs naming
// differently named fields) keep the generic text.
func condPhrases(v *Validator, types []reflect.Type) map[condKey]string {
	out := map[condKey]string{}
	ambiguous := map[condKey]bool{}
	for _, t := range types {
		si := v.infos[t]
		if si == nil {
			continue
		}
		for _, c := range si.conds {
			f := &si.fields[c.subject]
			k := condKey{goField: f.sf.Name, jsonField: f.name, tag: c.tag, param: c.param}
			if prev, ok := out[k]; ok && prev != c.phrase {
				ambiguous[k] = true
			}
			out[k] = c.phrase
		}
	}
	for k := range ambiguous {
		delete(out, k)
	}
	return out
}
