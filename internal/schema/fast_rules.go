package schema

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// The validate rules the fast path checks itself, each exactly as
// go-playground/validator v10 does for the field's kind (baked_in.go: hasValue,
// isGte, isLte, isGt, isLt, hasLengthOf, isEq, isNe, isOneOf; validator.go:
// traverseField for pointers and omitempty). Parameters are parsed once,
// here, with the validator's own parsers (asInt is strconv.ParseInt(p, 0, 64),
// and so on); a parameter it would panic on keeps the type on the slow path.

// ruleOp is one compiled rule.
type ruleOp uint8

const (
	opOmitEmpty ruleOp = iota // omitempty: a zero value skips the rules after it
	opRequired                // required: the value is not zero
	opGte                     // min, gte: value (number) or characters (string) >= param
	opLte                     // max, lte
	opGt                      // gt
	opLt                      // lt
	opLen                     // len: value (number) or characters (string) == param
	opEq                      // eq: value == param; a string compares its text
	opNe                      // ne: not eq
	opOneOf                   // oneof: the value, in base 10 for integers, is one of the words of param
)

// fastRule is one rule with its parameter parsed for the field's kind.
type fastRule struct {
	op    ruleOp
	i     int64    // int fields; a string's character bound
	u     uint64   // uint fields
	f     float64  // float fields, parsed at the field's size as the validator does
	b     bool     // bool fields
	s     string   // a string's eq and ne
	ints  []int64  // oneof on int fields: the values whose base-10 text is one of the words
	uints []uint64 // oneof on uint fields
	strs  []string // oneof on string fields
}

// compileRules compiles validate tag for a field of kind k (bits: a float's
// size), or reports that the tag holds something the fast path does not
// mirror exactly: another rule, an alternation, dive, a parameter the
// validator could not parse, a rule the validator would panic on for k.
func compileRules(tag string, k fastKind, bits int) ([]fastRule, bool) {
	if tag == "" || tag == "-" {
		return nil, true // "-": the validator skips the field
	}
	var out []fastRule
	// The validator splits on commas and then on "=", and unescapes 0x2C
	// and 0x7C in the parameter (cache.go, parseFieldTagsRecursive).
	for _, part := range strings.Split(tag, ",") {
		if strings.Contains(part, "|") {
			return nil, false
		}
		name, param, hasParam := strings.Cut(part, "=")
		param = unescapeParam(param)
		var r fastRule
		ok := true
		switch name {
		case "omitempty":
			r.op, ok = opOmitEmpty, !hasParam
		case "required":
			r.op, ok = opRequired, !hasParam
		case "min", "gte":
			r, ok = compareRule(opGte, param, k, bits)
		case "max", "lte":
			r, ok = compareRule(opLte, param, k, bits)
		case "gt":
			r, ok = compareRule(opGt, param, k, bits)
		case "lt":
			r, ok = compareRule(opLt, param, k, bits)
		case "len":
			r, ok = compareRule(opLen, param, k, bits)
		case "eq":
			r, ok = equalRule(opEq, param, k, bits)
		case "ne":
			r, ok = equalRule(opNe, param, k, bits)
		case "oneof":
			r, ok = oneOfRule(param, k)
		default:
			return nil, false
		}
		if !ok {
			return nil, false
		}
		out = append(out, r)
	}
	return out, true
}

// compareRule compiles min, max, gt, lt, len and their aliases: on a string
// they count characters, on a number they compare the value, on a bool the
// validator panics.
func compareRule(op ruleOp, param string, k fastKind, bits int) (fastRule, bool) {
	r := fastRule{op: op}
	var err error
	switch k {
	case fastString, fastInt:
		r.i, err = strconv.ParseInt(param, 0, 64)
	case fastUint:
		r.u, err = strconv.ParseUint(param, 0, 64)
	case fastFloat:
		r.f, err = strconv.ParseFloat(param, bits)
	default:
		return r, false
	}
	return r, err == nil
}

// equalRule compiles eq and ne: a string compares its text (not its
// length), a bool its strconv.ParseBool parameter.
func equalRule(op ruleOp, param string, k fastKind, bits int) (fastRule, bool) {
	r := fastRule{op: op}
	var err error
	switch k {
	case fastString:
		r.s = param
	case fastInt:
		r.i, err = strconv.ParseInt(param, 0, 64)
	case fastUint:
		r.u, err = strconv.ParseUint(param, 0, 64)
	case fastFloat:
		r.f, err = strconv.ParseFloat(param, bits)
	case fastBool:
		r.b, err = strconv.ParseBool(param)
	}
	return r, err == nil
}

// oneOfRule compiles oneof. The validator formats an integer in base 10 and
// looks for that text among the words, so an integer matches a word exactly
// when the word is the canonical base-10 text of a value; other words can
// never match and are dropped. Bools and floats make the validator panic.
func oneOfRule(param string, k fastKind) (fastRule, bool) {
	r := fastRule{op: opOneOf}
	words := oneOfValues(param) // the validator's own split: spaces, 'quoted words'
	switch k {
	case fastString:
		r.strs = words
	case fastInt:
		for _, w := range words {
			if n, err := strconv.ParseInt(w, 10, 64); err == nil && strconv.FormatInt(n, 10) == w {
				r.ints = append(r.ints, n)
			}
		}
	case fastUint:
		for _, w := range words {
			if n, err := strconv.ParseUint(w, 10, 64); err == nil && strconv.FormatUint(n, 10) == w {
				r.uints = append(r.uints, n)
			}
		}
	default:
		return r, false
	}
	return r, true
}

// valid reports whether the field of the struct at base passes its rules,
// as validator.Struct would decide it.
func (f *fastField) valid(base unsafe.Pointer) bool {
	p := f.at(base)
	if f.ptr {
		p = *(*unsafe.Pointer)(p)
		if p == nil {
			// A nil pointer passes only when there is no rule or the first
			// is omitempty; any other rule fails on it (required included).
			return f.nilOK
		}
	}
	for i := range f.rules {
		r := &f.rules[i]
		switch r.op {
		case opOmitEmpty:
			// hasValue: behind a non-nil pointer the value always "has a
			// value", whatever it is; otherwise it must not be zero.
			if !f.ptr && f.isZero(p) {
				return true
			}
		case opRequired:
			if !f.ptr && f.isZero(p) {
				return false
			}
		default:
			if !f.check(r, p) {
				return false
			}
		}
	}
	return true
}

// isZero is reflect.Value.IsZero for the value at p, which the validator's
// hasValue uses: for floats that is == 0, so -0 is zero too.
func (f *fastField) isZero(p unsafe.Pointer) bool {
	switch f.kind {
	case fastString:
		return len(*(*string)(p)) == 0
	case fastBool:
		return !*(*bool)(p)
	case fastInt:
		return loadInt(p, f.size) == 0
	case fastUint:
		return loadUint(p, f.size) == 0
	}
	return loadFloat(p, f.size) == 0
}

// check runs one comparison rule on the value at p.
func (f *fastField) check(r *fastRule, p unsafe.Pointer) bool {
	switch f.kind {
	case fastString:
		s := *(*string)(p)
		switch r.op {
		case opEq:
			return s == r.s
		case opNe:
			return s != r.s
		case opOneOf:
			return slices.Contains(r.strs, s)
		}
		return compare(r.op, int64(utf8.RuneCountInString(s)), r.i)
	case fastInt:
		v := loadInt(p, f.size)
		if r.op == opOneOf {
			return slices.Contains(r.ints, v)
		}
		return compare(r.op, v, r.i)
	case fastUint:
		v := loadUint(p, f.size)
		if r.op == opOneOf {
			return slices.Contains(r.uints, v)
		}
		return compare(r.op, v, r.u)
	case fastFloat:
		return compare(r.op, loadFloat(p, f.size), r.f)
	case fastBool:
		v := *(*bool)(p)
		if r.op == opNe {
			return v != r.b
		}
		return v == r.b // opEq: the only other rule compiled for a bool
	}
	return false
}

// compare applies one comparison with Go's own operators, as the validator
// does, so that a NaN parameter (strconv parses "NaN") fails every rule but ne.
func compare[T int64 | uint64 | float64](op ruleOp, v, param T) bool {
	switch op {
	case opGte:
		return v >= param
	case opLte:
		return v <= param
	case opGt:
		return v > param
	case opLt:
		return v < param
	case opLen, opEq:
		return v == param
	case opNe:
		return v != param
	}
	return false
}

// Loads and stores of a field's value at p, by size: a named type has the
// layout of its kind, so an int8-kinded field is read as an int8.

func loadInt(p unsafe.Pointer, size uintptr) int64 {
	switch size {
	case 1:
		return int64(*(*int8)(p))
	case 2:
		return int64(*(*int16)(p))
	case 4:
		return int64(*(*int32)(p))
	}
	return *(*int64)(p)
}

func loadUint(p unsafe.Pointer, size uintptr) uint64 {
	switch size {
	case 1:
		return uint64(*(*uint8)(p))
	case 2:
		return uint64(*(*uint16)(p))
	case 4:
		return uint64(*(*uint32)(p))
	}
	return *(*uint64)(p)
}

func loadFloat(p unsafe.Pointer, size uintptr) float64 {
	if size == 4 {
		return float64(*(*float32)(p))
	}
	return *(*float64)(p)
}
