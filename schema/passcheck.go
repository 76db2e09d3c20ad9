package schema

import (
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// A passCheck proves, without the validator, that a decoded struct passes
// its rules, when they are the common ones (required, omitempty, min, max,
// len, gt, gte, lt, lte, oneof) on scalar fields and pointers to them. It
// answers "passes" or "cannot tell": on "cannot tell" the validator runs as
// before, so its errors, and any rule the check does not know, stay the
// validator's. go-playground's Struct was 3.6 % of a served session call's
// CPU in its profile, about a microsecond; in process it takes 380 ns and
// four allocations for three fields where the check takes 45 ns and none
// (BenchmarkRules; bench/README.md, "Rules checked without the
// validator").
//
// It is built only where it can mirror the validator exactly: a Validator
// made by NewValidator(nil), whose built-in rule names RegisterRule cannot
// redefine, and a struct with no embedded, nested or interface field a
// validator would walk into. TestPassCheckAgreesWithTheValidator holds it
// to the validator's verdict on generated structs and values.
type passCheck struct {
	fields []passField
}

// passField is one field's rules, in the tag's order.
type passField struct {
	index int
	ptr   bool // a pointer to the scalar: nil passes only behind omitempty
	kind  reflect.Kind
	rules []passRule
}

type passOp uint8

const (
	opOmitEmpty passOp = iota
	opRequired
	opGte // min, gte
	opLte // max, lte
	opEq  // len
	opGt
	opLt
	opOneOf
)

// passRule is one rule with its parameter read as the validator reads it
// for the field's kind: a rune count or an int64 (strings, signed
// integers), a uint64, a float64 (rounded to float32 for a float32 field).
type passRule struct {
	op    passOp
	i     int64
	u     uint64
	f     float64
	strs  []string // oneof on strings
	ints  []int64  // oneof on signed integers
	uints []uint64 // oneof on unsigned integers
}

var durationType = reflect.TypeFor[time.Duration]()

// newPassCheck returns the check of t's rules, or nil when it cannot
// mirror the validator on t.
func newPassCheck(t reflect.Type, foreign bool) *passCheck {
	if foreign {
		return nil // its rules, struct-level functions and type functions are its own
	}
	pc := &passCheck{}
	for i := range t.NumField() {
		sf := t.Field(i)
		if sf.Anonymous {
			return nil
		}
		tag := sf.Tag.Get("validate")
		if !sf.IsExported() || tag == "-" {
			continue // the validator skips them too
		}
		ft, ptr := sf.Type, false
		if ft.Kind() == reflect.Pointer {
			ft, ptr = ft.Elem(), true
		}
		if tag == "" {
			switch {
			case passScalar(ft) || ft == timeType:
				continue
			case !ptr && (ft.Kind() == reflect.Slice || ft.Kind() == reflect.Map || ft.Kind() == reflect.Array):
				continue // without dive, the validator does not look inside
			}
			return nil // a struct or an interface the validator would walk into
		}
		if !passScalar(ft) {
			return nil
		}
		f := passField{index: i, ptr: ptr, kind: ft.Kind()}
		for part := range strings.SplitSeq(tag, ",") {
			r, ok := passRuleOf(part, ft)
			if !ok {
				return nil
			}
			f.rules = append(f.rules, r)
		}
		pc.fields = append(pc.fields, f)
	}
	return pc
}

// passScalar reports whether the check knows how the validator's rules
// read a value of t.
func passScalar(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.String, reflect.Bool, reflect.Float32, reflect.Float64,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return t != durationType // whose parameters the validator reads as durations
	}
	return false
}

// passRuleOf reads one rule of a validate tag on a field of type t, as the
// validator would: false when the check does not know it, or when the
// validator would panic on it (a parameter it cannot parse, a rule the
// kind has not).
func passRuleOf(part string, t reflect.Type) (passRule, bool) {
	name, param, hasParam := strings.Cut(part, "=")
	if strings.Contains(part, "0x") || strings.Contains(part, "|") {
		return passRule{}, false // escapes and alternations: the validator's
	}
	switch name {
	case "omitempty", "required":
		op := opOmitEmpty
		if name == "required" {
			op = opRequired
		}
		return passRule{op: op}, !hasParam
	}
	if t.Kind() == reflect.Bool || !hasParam {
		return passRule{}, false
	}
	var r passRule
	switch name {
	case "min", "gte":
		r.op = opGte
	case "max", "lte":
		r.op = opLte
	case "len":
		r.op = opEq
	case "gt":
		r.op = opGt
	case "lt":
		r.op = opLt
	case "oneof":
		r.op = opOneOf
	default:
		return r, false
	}
	op := r.op
	if op == opOneOf {
		return oneOfRule(r, param, t.Kind())
	}
	var err error
	switch t.Kind() {
	case reflect.String, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		r.i, err = strconv.ParseInt(param, 0, 64)
	case reflect.Float32:
		r.f, err = strconv.ParseFloat(param, 32)
	case reflect.Float64:
		r.f, err = strconv.ParseFloat(param, 64)
	default: // unsigned
		r.u, err = strconv.ParseUint(param, 0, 64)
	}
	return r, err == nil
}

// oneOfRule reads oneof's values as the validator compares them: strings
// as they are, integers by their decimal spelling (so "07" matches none).
func oneOfRule(r passRule, param string, k reflect.Kind) (passRule, bool) {
	vals := oneOfValues(param)
	for _, v := range vals {
		switch k {
		case reflect.String:
			r.strs = append(r.strs, v)
		case reflect.Float32, reflect.Float64:
			return r, false
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			if n, err := strconv.ParseInt(v, 10, 64); err == nil && strconv.FormatInt(n, 10) == v {
				r.ints = append(r.ints, n)
			}
		default:
			if n, err := strconv.ParseUint(v, 10, 64); err == nil && strconv.FormatUint(n, 10) == v {
				r.uints = append(r.uints, n)
			}
		}
	}
	return r, true
}

// passes reports whether v, a struct of the check's type, passes every
// rule; false means the validator must say.
func (pc *passCheck) passes(v reflect.Value) bool {
	for i := range pc.fields {
		f := &pc.fields[i]
		fv := v.Field(f.index)
		if f.ptr {
			if fv.IsNil() {
				if len(f.rules) == 0 || f.rules[0].op == opOmitEmpty {
					continue
				}
				return false
			}
			fv = fv.Elem()
		}
		if !f.passes(fv) {
			return false
		}
	}
	return true
}

func (f *passField) passes(v reflect.Value) bool {
	for i := range f.rules {
		r := &f.rules[i]
		switch r.op {
		case opOmitEmpty: // a set pointer has a value, whatever it points to
			if !f.ptr && v.IsZero() {
				return true
			}
		case opRequired:
			if !f.ptr && v.IsZero() {
				return false
			}
		default:
			if !r.holds(f.kind, v) {
				return false
			}
		}
	}
	return true
}

// holds applies a comparing rule to v as the validator's isGte, isLte,
// hasLengthOf, isGt, isLt and isOneOf do.
func (r *passRule) holds(k reflect.Kind, v reflect.Value) bool {
	switch k {
	case reflect.String:
		if r.op == opOneOf {
			return slices.Contains(r.strs, v.String())
		}
		return compare(r.op, int64(utf8.RuneCountInString(v.String())), r.i)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if r.op == opOneOf {
			return slices.Contains(r.ints, v.Int())
		}
		return compare(r.op, v.Int(), r.i)
	case reflect.Float32, reflect.Float64:
		return compare(r.op, v.Float(), r.f)
	default:
		if r.op == opOneOf {
			return slices.Contains(r.uints, v.Uint())
		}
		return compare(r.op, v.Uint(), r.u)
	}
}

func compare[T int64 | uint64 | float64](op passOp, x, p T) bool {
	switch op {
	case opGte:
		return x >= p
	case opLte:
		return x <= p
	case opEq:
		return x == p
	case opGt:
		return x > p
	case opLt:
		return x < p
	}
	return false
}
