package schema

import (
	"fmt"
	"reflect"
	"strings"
)

// fieldInfo is one JSON property of a struct after encoding/json's rules:
// exported fields, json names and options, embedded structs flattened.
type fieldInfo struct {
	name      string              // JSON name
	sf        reflect.StructField // the Go field, as declared in owner
	owner     reflect.Type        // the struct that declares the field (an embedded one for promoted fields)
	index     []int               // path from the outer struct, for reflect.Value.FieldByIndex
	omitEmpty bool                // json omitempty or omitzero: the author marked it optional
	quoted    bool                // json ",string": a number or bool written as a JSON string
	rules     ruleSet             // the parsed validate tag
}

// typ is the field's Go type.
func (f *fieldInfo) typ() reflect.Type { return f.sf.Type }

// defPanic stops CodecFor on a definition error, naming the struct and the
// field so the author finds the line to change.
func defPanic(f *fieldInfo, format string, args ...any) {
	panic(defMessage(f, format, args...))
}

func defMessage(f *fieldInfo, format string, args ...any) string {
	return fmt.Sprintf("schema: field %s (json %q) of %s: %s",
		f.sf.Name, f.name, typeName(f.owner), fmt.Sprintf(format, args...))
}

func typeName(t reflect.Type) string {
	if t.Name() != "" {
		return t.Name()
	}
	return t.String()
}

// structFields lists the JSON properties of struct type t in declaration
// order, embedded structs flattened in place, as encoding/json reads them.
// Two properties with the same JSON name are a definition error: encoding/json
// would silently drop one of them, and the schema could not say which.
// inputProblem is a definition error that only matters when t is decoded
// (encoding/json can write what it cannot read back).
func structFields(t reflect.Type) (fields []fieldInfo, inputProblem string) {
	var out []fieldInfo
	seen := map[string]*fieldInfo{}
	walkFields(t, nil, map[reflect.Type]bool{t: true}, &out, &inputProblem)
	for i := range out {
		f := &out[i]
		if prev, dup := seen[f.name]; dup {
			defPanic(f, "JSON name %q is also used by field %s of %s; rename one of them",
				f.name, prev.sf.Name, typeName(prev.owner))
		}
		seen[f.name] = f
	}
	return out, inputProblem
}

func walkFields(t reflect.Type, index []int, visiting map[reflect.Type]bool, out *[]fieldInfo, problem *string) {
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		ft := sf.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if sf.Anonymous {
			if !sf.IsExported() && ft.Kind() != reflect.Struct {
				continue
			}
			if name == "" && ft.Kind() == reflect.Struct {
				if !sf.IsExported() && sf.Type.Kind() == reflect.Pointer && *problem == "" {
					*problem = defMessage(&fieldInfo{name: sf.Name, sf: sf, owner: t},
						"encoding/json cannot set an embedded pointer to an unexported struct; embed %s by value or export it", ft)
				}
				if visiting[ft] {
					continue // encoding/json ignores a struct embedded in itself
				}
				visiting[ft] = true
				walkFields(ft, append(append([]int(nil), index...), i), visiting, out, problem)
				delete(visiting, ft)
				continue
			}
		} else if !sf.IsExported() {
			continue
		}
		if name == "" {
			name = sf.Name
		}
		f := fieldInfo{
			name:  name,
			sf:    sf,
			owner: t,
			index: append(append([]int(nil), index...), i),
		}
		for _, o := range strings.Split(opts, ",") {
			switch o {
			case "omitempty", "omitzero":
				f.omitEmpty = true
			case "string":
				f.quoted = true
			}
		}
		f.rules = parseRules(sf.Tag.Get("validate"))
		*out = append(*out, f)
	}
}
