package schema

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
)

// The generator of random tagged structs for TestSchemaTruth. Each struct
// is built with reflect.StructOf from field specs that know how to make a
// valid JSON value for themselves and how to break it, so that calls can
// be generated without hard-coding any verdict: the verdict is always the
// one a JSON Schema validator reads in the published schema.
//
// What it does not generate, and why (every other combination must agree):
//   - any, json.RawMessage, time.Time, []byte, float32 and Go arrays;
//   - numbers beyond a 64-bit field's range (the schema states the range of
//     sized integers only: stating ±9223372036854775807 on every int would
//     cost tokens for a value no model sends), or beyond float64's;
//   - format values outside fixed pools: validator's email, URL and IP
//     checks and JSON Schema's formats agree on ordinary values, not on
//     every exotic edge (quoted local parts, IPv6 zones);
//   - floats with more than six significant digits (validator compares
//     float64s, JSON Schema exact decimals);
//   - unique on anything but slices of scalars, oneof on floats (validator
//     panics), conditions on non-scalar fields.

// fieldSpec is one generated field.
type fieldSpec struct {
	goName, name string
	typ          reflect.Type
	tag          reflect.StructTag
	val          *valueSpec
	optional     bool       // may be left out of a valid call
	embedded     *structGen // an embedded struct: its fields are this object's
	deflt        any        // the default, as a JSON value; nil: none
}

// valueSpec describes the values of one type: a scalar with its rules, a
// list, a map or an object.
type valueSpec struct {
	kind  string // "string", "int", "uint", "float", "bool", "slice", "map", "object"
	bits  int    // integer size
	rules []string
	// strings
	class  string // "plain", "oneof", "eq", "alpha", "alphanum", "numeric", "number", "hex", "prefix", "suffix", "contains", or a format
	lo, hi int    // length bounds (plain, alpha...), -1 for none
	words  []string
	ne     string
	// numbers
	nlo, nhi   float64 // inclusive bounds of valid values
	boundedLo  bool
	boundedHi  bool
	choices    []int64
	boolTrue   bool // bool eq=true
	elem       *valueSpec
	minN, maxN int // items of a slice or map
	unique     bool
	keyRules   bool
	obj        *structGen
}

// structGen is one generated struct type with its field specs.
type structGen struct {
	typ    reflect.Type
	fields []*fieldSpec
	prefix string
}

type gen struct {
	r     *rand.Rand
	count int
}

func (g *gen) pick(n int) int { return g.r.IntN(n) }

func (g *gen) chance(p float64) bool { return g.r.Float64() < p }

// structOf generates a struct of a few fields; depth bounds the nesting.
func (g *gen) structOf(depth int) *structGen {
	g.count++
	sg := &structGen{prefix: fmt.Sprintf("s%d", g.count)}
	n := 1 + g.pick(6)
	var sfs []reflect.StructField
	for i := 0; i < n; i++ {
		f := g.field(sg, i, depth)
		sg.fields = append(sg.fields, f)
		sfs = append(sfs, reflect.StructField{Name: f.goName, Type: f.typ, Tag: f.tag, Anonymous: f.embedded != nil})
	}
	g.conditionals(sg, sfs)
	sg.typ = reflect.StructOf(sfs)
	return sg
}

func (g *gen) field(sg *structGen, i, depth int) *fieldSpec {
	f := &fieldSpec{goName: fmt.Sprintf("F%s_%d", strings.ToUpper(sg.prefix), i), name: fmt.Sprintf("%s_f%d", sg.prefix, i)}
	roll := g.pick(100)
	switch {
	case depth < 2 && roll < 6:
		inner := g.structOf(depth + 1)
		f.embedded = inner
		f.goName = "E" + strings.ToUpper(inner.prefix)
		f.typ = inner.typ
		f.tag = ""
		return f
	case depth < 2 && roll < 20:
		return g.objectField(f, depth)
	case roll < 35:
		return g.listField(f, depth)
	case roll < 42:
		return g.mapField(f)
	}
	return g.scalarField(f)
}

// scalarField makes a scalar field: required or optional, behind a pointer
// or not, perhaps with a default.
func (g *gen) scalarField(f *fieldSpec) *fieldSpec {
	v := g.scalar()
	base := v.goType()
	rules := strings.Join(v.rules, ",")
	var validate string
	jsonOpt := ""
	switch mode := g.pick(5); {
	case mode == 0 && v.kind == "string" || mode == 0 && g.chance(0.5):
		// Required: by rule on a string or a pointer.
		if v.kind != "string" {
			base = reflect.PointerTo(base)
		} else if v.lo < 1 {
			v.lo = 1 // required refuses ""
		}
		validate = join("required", rules)
	case mode <= 2:
		f.typ = reflect.PointerTo(base)
		f.optional = true
		jsonOpt = ",omitempty"
		validate = join("omitempty", rules)
	default:
		f.optional = true
		jsonOpt = ",omitempty"
		validate = join("omitempty", rules)
	}
	if f.typ == nil {
		f.typ = base
	}
	tag := fmt.Sprintf(`json:"%s%s"`, f.name, jsonOpt)
	if validate != "" {
		tag += fmt.Sprintf(` validate:"%s"`, validate)
	}
	if f.optional && g.chance(0.3) {
		d := v.valid(g)
		f.deflt = d
		tag += fmt.Sprintf(` default:"%s"`, tagText(d))
	}
	f.tag = reflect.StructTag(tag)
	f.val = v
	return f
}

func join(a, b string) string {
	if b == "" {
		return a
	}
	return a + "," + b
}

// tagText writes a JSON value as a default tag reads it.
func tagText(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case json.Number:
		return string(v)
	case bool:
		return strconv.FormatBool(v)
	}
	panic(fmt.Sprintf("no tag text for %T", v))
}

func (g *gen) objectField(f *fieldSpec, depth int) *fieldSpec {
	inner := g.structOf(depth + 1)
	f.val = &valueSpec{kind: "object", obj: inner}
	if g.chance(0.5) {
		f.typ = reflect.PointerTo(inner.typ)
		f.optional = true
		f.tag = reflect.StructTag(fmt.Sprintf(`json:"%s,omitempty"`, f.name))
	} else {
		f.typ = inner.typ
		f.tag = reflect.StructTag(fmt.Sprintf(`json:"%s"`, f.name))
	}
	return f
}

func (g *gen) listField(f *fieldSpec, depth int) *fieldSpec {
	var elem *valueSpec
	var et reflect.Type
	if depth < 2 && g.chance(0.25) {
		inner := g.structOf(depth + 1)
		elem = &valueSpec{kind: "object", obj: inner}
		et = inner.typ
	} else {
		elem = g.scalar()
		if elem.kind == "uint" && elem.bits == 8 {
			elem.bits = 16 // []uint8 is []byte: a base64 string
			elem.nlo, elem.nhi = typeRange("uint", 16)
			if elem.boundedLo || elem.boundedHi {
				elem = g.intSpec(true)
			}
		}
		et = elem.goType()
	}
	v := &valueSpec{kind: "slice", elem: elem, minN: 0, maxN: 4}
	var rules []string
	if g.chance(0.4) {
		v.minN = 1 + g.pick(2)
		rules = append(rules, fmt.Sprintf("min=%d", v.minN))
	}
	if g.chance(0.4) {
		v.maxN = v.minN + g.pick(3)
		rules = append(rules, fmt.Sprintf("max=%d", v.maxN))
	}
	if elem.kind != "object" && elem.kind != "bool" && elem.class != "eq" && len(elem.choices) != 1 && g.chance(0.3) {
		v.unique = true
		rules = append(rules, "unique")
	}
	rules = append(rules, "dive")
	rules = append(rules, elem.rules...)
	if elem.kind == "string" && elem.class == "plain" && elem.lo < 1 && g.chance(0.3) {
		rules = append(rules, "required") // dive,required: no empty item
		elem.lo = 1
	}
	v.rules = rules
	f.val = v
	f.typ = reflect.SliceOf(et)
	f.optional = true
	f.tag = reflect.StructTag(fmt.Sprintf(`json:"%s,omitempty" validate:"%s"`, f.name, join("omitempty", strings.Join(rules, ","))))
	return f
}

func (g *gen) mapField(f *fieldSpec) *fieldSpec {
	elem := g.scalar()
	v := &valueSpec{kind: "map", elem: elem, maxN: 3}
	rules := []string{}
	if g.chance(0.3) {
		v.maxN = 1 + g.pick(2)
		rules = append(rules, fmt.Sprintf("max=%d", v.maxN))
	}
	rules = append(rules, "dive")
	if g.chance(0.5) {
		v.keyRules = true
		rules = append(rules, "keys", "alpha", "max=6", "endkeys")
	}
	rules = append(rules, elem.rules...)
	v.rules = rules
	f.val = v
	f.typ = reflect.MapOf(reflect.TypeFor[string](), elem.goType())
	f.optional = true
	f.tag = reflect.StructTag(fmt.Sprintf(`json:"%s,omitempty" validate:"%s"`, f.name, join("omitempty", strings.Join(rules, ","))))
	return f
}

var stringFormats = []string{"email", "url", "uri", "uuid", "uuid4", "ipv4", "ipv6", "ip", "hostname", "date", "date-time"}

// scalar makes a scalar value spec with its rules.
func (g *gen) scalar() *valueSpec {
	switch g.pick(9) {
	case 0, 1, 2:
		return g.stringSpec()
	case 3, 4:
		return g.intSpec(true)
	case 5:
		return g.intSpec(false)
	case 6, 7:
		return g.floatSpec()
	}
	v := &valueSpec{kind: "bool"}
	if g.chance(0.2) {
		v.boolTrue = true
		v.rules = []string{"eq=true"}
	}
	return v
}

func (g *gen) stringSpec() *valueSpec {
	v := &valueSpec{kind: "string", lo: -1, hi: -1}
	classes := []string{"plain", "plain", "plain", "oneof", "eq", "alpha", "alphanum", "numeric", "number", "hex", "prefix", "suffix", "contains", "format", "format"}
	v.class = classes[g.pick(len(classes))]
	lengths := func() {
		switch g.pick(4) {
		case 0:
			v.lo = 1 + g.pick(3)
			v.rules = append(v.rules, fmt.Sprintf("min=%d", v.lo))
		case 1:
			v.hi = 2 + g.pick(6)
			v.rules = append(v.rules, fmt.Sprintf("max=%d", v.hi))
		case 2:
			v.lo = 1 + g.pick(3)
			v.hi = v.lo + g.pick(4)
			v.rules = append(v.rules, fmt.Sprintf("gte=%d", v.lo), fmt.Sprintf("lt=%d", v.hi+1))
		case 3:
			if g.chance(0.3) {
				v.lo = 2 + g.pick(3)
				v.hi = v.lo
				v.rules = append(v.rules, fmt.Sprintf("len=%d", v.lo))
			}
		}
	}
	switch v.class {
	case "plain":
		lengths()
		if g.chance(0.2) {
			v.ne = "nope"
			v.rules = append(v.rules, "ne=nope")
		}
	case "oneof":
		v.words = []string{"red", "green", "light blue"}[:1+g.pick(3)]
		v.rules = []string{"oneof=red green 'light blue'"}
	case "eq":
		v.words = []string{"yes"}
		v.rules = []string{"eq=yes"}
	case "alpha", "alphanum", "numeric", "number":
		v.rules = []string{v.class}
		lengths()
	case "hex":
		v.rules = []string{"hexadecimal"}
		lengths()
	case "prefix":
		v.rules = []string{"startswith=ab"}
	case "suffix":
		v.rules = []string{"endswith=yz"}
	case "contains":
		v.rules = []string{"contains=mid"}
	case "format":
		v.class = stringFormats[g.pick(len(stringFormats))]
		switch v.class {
		case "date":
			v.rules = []string{"datetime=2006-01-02"}
		case "date-time":
			v.rules = []string{"datetime=2006-01-02T15:04:05Z07:00"}
		default:
			v.rules = []string{v.class}
		}
	}
	return v
}

func (g *gen) intSpec(signed bool) *valueSpec {
	v := &valueSpec{kind: "int"}
	sizes := []int{8, 16, 32, 64}
	v.bits = sizes[g.pick(len(sizes))]
	if !signed {
		v.kind = "uint"
	}
	v.nlo, v.nhi = typeRange(v.kind, v.bits)
	switch g.pick(6) {
	case 0:
		v.nlo = float64(g.pick(50)) - 20
		if !signed && v.nlo < 0 {
			v.nlo = 0
		}
		v.boundedLo = true
		v.rules = []string{fmt.Sprintf("min=%d", int64(v.nlo))}
	case 1:
		v.nhi = float64(g.pick(100) + 1)
		v.boundedHi = true
		v.rules = []string{fmt.Sprintf("lte=%d", int64(v.nhi))}
	case 2:
		lo := float64(g.pick(10))
		hi := lo + float64(2+g.pick(20))
		v.nlo, v.nhi = lo+1, hi-1
		v.boundedLo, v.boundedHi = true, true
		v.rules = []string{fmt.Sprintf("gt=%d", int64(lo)), fmt.Sprintf("lt=%d", int64(hi))}
	case 3:
		v.rules = []string{"oneof=1 2 3 5"}
		v.choices = []int64{1, 2, 3, 5}
	case 4:
		v.choices = []int64{7}
		v.rules = []string{"eq=7"}
	case 5:
		v.rules = []string{"ne=4"}
		v.ne = "4"
	}
	return v
}

func typeRange(kind string, bits int) (float64, float64) {
	if kind == "uint" {
		if bits == 64 {
			return 0, 1e15
		}
		return 0, float64(uint64(1)<<bits - 1)
	}
	if bits == 64 {
		return -1e15, 1e15
	}
	return -float64(int64(1) << (bits - 1)), float64(int64(1)<<(bits-1) - 1)
}

func (g *gen) floatSpec() *valueSpec {
	v := &valueSpec{kind: "float", nlo: -1e6, nhi: 1e6}
	switch g.pick(4) {
	case 0:
		v.nlo, v.boundedLo = 0.5, true
		v.rules = []string{"gte=0.5"}
	case 1:
		v.nhi, v.boundedHi = 99.25, true
		v.rules = []string{"max=99.25"}
	case 2:
		v.nlo, v.nhi = -1.5, 1.5
		v.boundedLo, v.boundedHi = true, true
		v.rules = []string{"gt=-2", "lt=2"}
	case 3:
		v.rules = []string{"ne=0.25"}
		v.ne = "0.25"
	}
	return v
}

// goType is the Go type of a scalar spec.
func (v *valueSpec) goType() reflect.Type {
	switch v.kind {
	case "string":
		return reflect.TypeFor[string]()
	case "bool":
		return reflect.TypeFor[bool]()
	case "float":
		return reflect.TypeFor[float64]()
	case "int":
		return []reflect.Type{reflect.TypeFor[int8](), reflect.TypeFor[int16](), reflect.TypeFor[int32](), reflect.TypeFor[int]()}[bitsIndex(v.bits)]
	case "uint":
		return []reflect.Type{reflect.TypeFor[uint8](), reflect.TypeFor[uint16](), reflect.TypeFor[uint32](), reflect.TypeFor[uint64]()}[bitsIndex(v.bits)]
	}
	panic("no Go type for " + v.kind)
}

func bitsIndex(bits int) int {
	return map[int]int{8: 0, 16: 1, 32: 2, 64: 3}[bits]
}

// conditionals adds conditional rules between scalar fields of sg: a
// trigger (a string with a few values, an integer, a bool, or any
// pointer for the with rules) and an optional subject.
func (g *gen) conditionals(sg *structGen, sfs []reflect.StructField) {
	if !g.chance(0.5) {
		return
	}
	var scalars []int
	for i, f := range sg.fields {
		if f.embedded == nil && f.val != nil && f.val.kind != "object" && f.val.kind != "slice" && f.val.kind != "map" {
			scalars = append(scalars, i)
		}
	}
	if len(scalars) < 2 {
		return
	}
	for n := 0; n < 1+g.pick(2); n++ {
		ti, si := scalars[g.pick(len(scalars))], scalars[g.pick(len(scalars))]
		if ti == si || !sg.fields[si].optional {
			continue
		}
		trig, subj := sg.fields[ti], sg.fields[si]
		tags := []string{"required_with", "required_with_all", "required_without", "required_without_all",
			"excluded_with", "excluded_with_all", "excluded_without", "excluded_without_all",
			"required_if", "required_unless", "excluded_if", "excluded_unless"}
		tag := tags[g.pick(len(tags))]
		if strings.HasPrefix(tag, "excluded") && subj.deflt != nil {
			continue // its default would fill it in
		}
		param := trig.goName
		if strings.HasSuffix(tag, "_if") || strings.HasSuffix(tag, "_unless") {
			val := trig.val.valid(g)
			text := tagText(val)
			if strings.ContainsAny(text, " ,|") || text == "" {
				continue
			}
			param += " " + text
		}
		validate := subj.tag.Get("validate")
		newTag := strings.Replace(string(subj.tag), `validate:"`+validate+`"`, `validate:"`+join(tag+"="+param, validate)+`"`, 1)
		if validate == "" {
			newTag += fmt.Sprintf(` validate:"%s=%s"`, tag, param)
		}
		subj.tag = reflect.StructTag(newTag)
		sfs[si].Tag = subj.tag
	}
}
