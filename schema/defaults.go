package schema

import (
	"encoding/json"
	"math"
	"reflect"
	"strconv"
)

// Defaults: `default:"20"` is published in the schema and applied by
// Decode when the property is absent, on both decode paths, for pointers
// and inside nested objects that were sent; so the handler receives what
// the schema promised. A default its own rules reject is a definition
// error.

// defaultValue is one field's parsed default tag.
type defaultValue struct {
	literal string        // the value as canonical JSON: 20, "name", true
	value   reflect.Value // the value, of the field's type with pointers removed
}

// parseDefault reads f's default tag, or returns nil when it has none. It
// panics, naming the field, when the field's type cannot take a default or
// the tag is not a value of that type.
func parseDefault(f *fieldInfo) *defaultValue {
	tag, ok := f.sf.Tag.Lookup("default")
	if !ok {
		return nil
	}
	t := deref(f.typ())
	if t == timeType || implements(t, typeUnmarshaler) || implements(t, typeTextUnmarshaler) {
		defPanic(f, "the default tag is supported on strings, numbers and booleans (or pointers to them), not on %s", t)
	}
	d := &defaultValue{value: reflect.New(t).Elem()}
	bad := func() {
		defPanic(f, "default %q is not a valid %s", tag, t)
	}
	switch t.Kind() {
	case reflect.String:
		d.literal = jsonString(tag)
		d.value.SetString(tag)
	case reflect.Bool:
		b, err := strconv.ParseBool(tag)
		if err != nil {
			bad()
		}
		d.literal = strconv.FormatBool(b)
		d.value.SetBool(b)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, err := strconv.ParseInt(integralTag(tag), 10, 64)
		if err != nil || d.value.OverflowInt(n) {
			bad()
		}
		d.literal = strconv.FormatInt(n, 10)
		d.value.SetInt(n)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, err := strconv.ParseUint(integralTag(tag), 10, 64)
		if err != nil || d.value.OverflowUint(n) {
			bad()
		}
		d.literal = strconv.FormatUint(n, 10)
		d.value.SetUint(n)
	case reflect.Float32, reflect.Float64:
		x, err := strconv.ParseFloat(tag, t.Bits())
		if err != nil || math.IsInf(x, 0) || math.IsNaN(x) || !validNumber([]byte(tag)) {
			bad()
		}
		d.literal = tag // the number as written: decoding it gives x
		d.value.SetFloat(x)
	default:
		defPanic(f, "the default tag is supported on strings, numbers and booleans (or pointers to them), not on %s", t)
	}
	return d
}

// integralTag is tag as canonical integer digits when it is a whole number
// written as JSON writes numbers (1e2, 7.0), else tag unchanged.
func integralTag(tag string) string {
	if !validNumber([]byte(tag)) {
		return tag
	}
	if text, st := intText([]byte(tag), nil); st == integralOK {
		return string(text)
	}
	return tag
}

// checkDefault panics when f's default d breaks f's own rules: its
// validate rules (the unconditional ones, at the field's level) and its
// enum tag. A required field cannot have a default: it is never absent.
func (v *Validator) checkDefault(f *fieldInfo, d *defaultValue) {
	if f.rules.has("required") || f.sf.Tag.Get("required") == "true" {
		defPanic(f, "a required field's default never applies; remove the default or make the field optional")
	}
	if tag := ruleTag(f.rules.levels[0].rules, true); tag != "" {
		if fe := v.firstFailure(d.value.Interface(), tag); fe != nil {
			r := fe.Tag()
			if fe.Param() != "" {
				r += "=" + fe.Param()
			}
			defPanic(f, "default %s breaks the field's own rule %q (%s); change the default or the rule",
				d.literal, r, ruleMessage(fe.Tag(), fe.Param(), fe.Kind(), builtin, v.messages))
		}
	}
	if values, ok := f.sf.Tag.Lookup("enum"); ok {
		var raw string
		if err := json.Unmarshal([]byte(d.literal), &raw); err != nil {
			raw = d.literal
		}
		for _, e := range splitEnum(values) {
			if e == raw {
				return
			}
		}
		defPanic(f, "default %s is not among the enum values %s; change the default or the enum", d.literal, values)
	}
}

// jsonString is s as a JSON string.
func jsonString(s string) string {
	b, _ := json.Marshal(s) // a string always marshals
	return string(b)
}

// setDefaults stores every default of si into the struct value rv,
// allocating pointer fields; a field behind a nil embedded pointer is left
// alone, as encoding/json would not reach it either.
func setDefaults(rv reflect.Value, si *structInfo) {
	for i, d := range si.defaults {
		if d == nil {
			continue
		}
		fv, err := rv.FieldByIndexErr(si.fields[i].index)
		if err != nil {
			continue
		}
		if fv.Kind() == reflect.Pointer {
			p := reflect.New(fv.Type().Elem())
			p.Elem().Set(d.value)
			fv.Set(p)
			continue
		}
		fv.Set(d.value.Convert(fv.Type()))
	}
}
