package schema

import (
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/go-playground/validator/v10"
)

// structInfo is what every part of the package needs to know about one
// struct type: its JSON properties and which of them must be present.
type structInfo struct {
	fields   []fieldInfo
	required []bool          // parallel to fields: the schema lists it in "required" and Decode reports it missing
	defaults []*defaultValue // parallel to fields: the parsed default tag, or nil
	conds    []condRule      // the conditional rules of the fields, in declaration order
}

// walkedStruct is what Validator.fieldsOf remembers of a struct type: its
// JSON properties, which do not depend on the rules (a structInfo does:
// its required flags come from the validator's verdict on zero values).
type walkedStruct struct {
	fields       []fieldInfo
	inputProblem string
}

// fieldsOf returns the JSON properties of struct type t, walked once per
// Validator, and a definition error that only matters for decoding.
// Callers hold v.mu.
func (v *Validator) fieldsOf(t reflect.Type) ([]fieldInfo, string) {
	if w, ok := v.walked[t]; ok {
		return w.fields, w.inputProblem
	}
	fs, problem := structFields(t)
	v.walked[t] = walkedStruct{fs, problem}
	return fs, problem
}

// infoOf returns v's cached structInfo of struct type t, computing it on
// first use. It panics on the definition errors that would make the schema
// and the validator disagree about what may be left out. Callers hold v.mu.
func (v *Validator) infoOf(t reflect.Type) *structInfo {
	if si, ok := v.infos[t]; ok {
		return si
	}
	fields, problem := v.fieldsOf(t)
	if problem != "" {
		panic(problem)
	}
	si := &structInfo{fields: fields}
	si.required = make([]bool, len(si.fields))
	si.defaults = make([]*defaultValue, len(si.fields))
	for i := range si.fields {
		if d := parseDefault(&si.fields[i]); d != nil {
			v.checkDefault(&si.fields[i], d)
			si.defaults[i] = d
		}
	}
	// What an absent field decodes to: its zero value, or its default.
	zero := v.zeroFailures(t, si)
	for i := range si.fields {
		f := &si.fields[i]
		ft := f.typ()
		if f.quoted {
			defPanic(f, `the json ",string" option is not supported on input; declare the field as a string`)
		}
		hasRequired := f.rules.has("required")
		if hasRequired && ft.Kind() != reflect.Pointer {
			switch ft.Kind() {
			case reflect.Bool:
				defPanic(f, `validate:"required" on a non-pointer %s rejects a legitimate false; use *%s`, ft, ft)
			case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
				reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
				reflect.Float32, reflect.Float64:
				defPanic(f, `validate:"required" on a non-pointer %s rejects a legitimate 0; use *%s`, ft, ft)
			}
		}
		if layers, elem := containerLayers(ft); layers > len(f.rules.levels)-1 && hasRules(elem, map[reflect.Type]bool{}) {
			defPanic(f, `the elements of %s have validate rules that validator only checks after "dive"; `+
				`add %q to the validate tag`, ft, strings.Repeat(",dive", layers)[1:])
		}
		tagRequired := f.sf.Tag.Get("required") == "true" // swaggest's own tag
		zf, rejectsZero := zero[f.name]
		delete(zero, f.name)
		if rejectsZero && !hasRequired && !tagRequired && (ft.Kind() == reflect.Pointer || f.omitEmpty) {
			why := "omitempty"
			if ft.Kind() == reflect.Pointer {
				why = "a pointer"
			}
			defPanic(f, `the field is optional (%s) but the validator rejects it when absent (rule %q at %q); `+
				`start the validate tag with "omitempty", or add "required"`, why, zf.tag, zf.path)
		}
		si.required[i] = hasRequired || tagRequired || rejectsZero
	}
	for _, zf := range zero {
		// A field that JSON cannot set (json:"-") and whose zero value fails:
		// every call would be refused.
		panic(fmt.Sprintf("schema: struct %s: a field that JSON cannot set (json:\"-\") fails rule %q when zero; "+
			"remove the rule or expose the field", typeName(t), zf.tag))
	}
	si.conds = v.conditionals(t, si)
	v.infos[t] = si
	return si
}

// containerLayers counts the slices, arrays and maps around a struct element
// type ([]T: 1, map[string][]T: 2) and returns that struct type; 0 and nil
// when t does not hold structs.
func containerLayers(t reflect.Type) (int, reflect.Type) {
	n := 0
	for {
		t = deref(t)
		switch t.Kind() {
		case reflect.Slice, reflect.Array, reflect.Map:
			n++
			t = t.Elem()
		case reflect.Struct:
			if n == 0 || t == timeType {
				return 0, nil
			}
			return n, t
		default:
			return 0, nil
		}
	}
}

// hasRules reports whether struct type t, or a struct it contains, has a
// validate tag.
func hasRules(t reflect.Type, seen map[reflect.Type]bool) bool {
	t = deref(t)
	if t.Kind() != reflect.Struct || seen[t] {
		return false
	}
	seen[t] = true
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		if v := sf.Tag.Get("validate"); v != "" && v != "-" {
			return true
		}
		ft := sf.Type
		for {
			ft = deref(ft)
			if k := ft.Kind(); k != reflect.Slice && k != reflect.Array && k != reflect.Map {
				break
			}
			ft = ft.Elem()
		}
		if hasRules(ft, seen) {
			return true
		}
	}
	return false
}

// zeroFailure is a rule that fails when a field holds its zero value, which
// is what an absent field decodes to.
type zeroFailure struct {
	path string // JSON path inside the struct, e.g. "name" or "address.city"
	tag  string
}

// zeroFailures validates with v a t whose fields hold what an absent
// property decodes to (the zero value, or the field's default) and
// returns, per top-level JSON name, the first rule that rejects it.
// Conditional rules (required_if, eqfield, ...) of t's own fields depend on
// other fields and say nothing about absence alone; those of a nested
// struct's fields fail on the nested struct's zero value, so they count. A malformed validate
// tag panics here, at CodecFor time, naming the struct.
func (v *Validator) zeroFailures(t reflect.Type, si *structInfo) map[string]zeroFailure {
	probe := reflect.New(t)
	var err error
	func() {
		defer func() {
			if r := recover(); r != nil {
				panic(fmt.Sprintf("schema: struct %s: bad validate tag: %v", typeName(t), r))
			}
		}()
		setDefaults(probe.Elem(), si)
		err = v.validate.Struct(probe.Interface())
	}()
	out := map[string]zeroFailure{}
	var ves validator.ValidationErrors
	if !errors.As(err, &ves) {
		return out
	}
	for _, fe := range ves {
		path := namespacePath(fe.Namespace(), t)
		top := path
		nested := false
		if i := strings.IndexAny(path, ".["); i >= 0 {
			top, nested = path[:i], true
		}
		if conditionalRule(fe.Tag()) && !nested {
			// It depends on the other fields of t. Inside a nested struct,
			// it is that struct's zero value that fails: absent, it fails.
			continue
		}
		if _, seen := out[top]; !seen {
			out[top] = zeroFailure{path: path, tag: fe.Tag()}
		}
	}
	return out
}

func conditionalRule(tag string) bool {
	return strings.HasPrefix(tag, "required_") || strings.HasPrefix(tag, "excluded_") ||
		strings.Contains(tag, "field") || strings.HasPrefix(tag, "skip_")
}
