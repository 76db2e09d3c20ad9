package toon

import (
	"cmp"
	"reflect"
	"slices"
	"strings"
	"sync"
	"unicode"
)

// structField is one JSON field of a struct type, resolved once per type.
type structField struct {
	name      string
	index     []int // path through embedded structs
	tagged    bool  // name came from a json tag
	omitEmpty bool
	omitZero  bool
	quoted    bool // ",string": the scalar is written as a string
	typ       reflect.Type
	enc       encodeFunc
	isZero    func(reflect.Value) bool
}

var fieldCache sync.Map // reflect.Type -> []structField

// typeFields lists the JSON fields of struct type t in declaration order,
// with the visibility rules of encoding/json, so that a type marshals to
// the same keys in TOON as in JSON: exported fields, json tag names and
// options, fields of embedded structs promoted unless a shallower or tagged
// field of the same name hides them, and ambiguous names dropped.
func typeFields(t reflect.Type) []structField {
	if f, ok := fieldCache.Load(t); ok {
		return f.([]structField)
	}
	f, _ := fieldCache.LoadOrStore(t, collectFields(t))
	return f.([]structField)
}

func collectFields(t reflect.Type) []structField {
	type pending struct {
		typ   reflect.Type
		index []int
	}
	var found []structField
	current := []pending{}
	next := []pending{{typ: t}}
	visited := map[reflect.Type]bool{}
	// count[T] is how many paths reach embedded struct T at this level;
	// nextCount gathers the same for the level below.
	var count, nextCount map[reflect.Type]int
	for len(next) > 0 {
		current, next = next, current[:0]
		count, nextCount = nextCount, map[reflect.Type]int{}
		for _, p := range current {
			if visited[p.typ] {
				continue
			}
			visited[p.typ] = true
			for i := 0; i < p.typ.NumField(); i++ {
				sf := p.typ.Field(i)
				if sf.Anonymous {
					ft := sf.Type
					if ft.Kind() == reflect.Pointer {
						ft = ft.Elem()
					}
					if !sf.IsExported() && ft.Kind() != reflect.Struct {
						continue
					}
				} else if !sf.IsExported() {
					continue
				}
				tag := sf.Tag.Get("json")
				if tag == "-" {
					continue
				}
				name, opts, _ := strings.Cut(tag, ",")
				if !validTagName(name) {
					name = ""
				}
				index := append(slices.Clip(p.index), i)
				ft := sf.Type
				if ft.Name() == "" && ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if name == "" && sf.Anonymous && ft.Kind() == reflect.Struct {
					nextCount[ft]++
					if nextCount[ft] == 1 {
						next = append(next, pending{typ: ft, index: index})
					}
					continue
				}
				f := structField{
					name:      name,
					index:     index,
					tagged:    name != "",
					omitEmpty: hasOption(opts, "omitempty"),
					omitZero:  hasOption(opts, "omitzero"),
					typ:       sf.Type,
				}
				if f.name == "" {
					f.name = sf.Name
				}
				if hasOption(opts, "string") && !hasMarshaler(sf.Type) && !hasMarshaler(reflect.PointerTo(sf.Type)) {
					switch ft.Kind() {
					case reflect.Bool, reflect.String,
						reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
						reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
						reflect.Float32, reflect.Float64:
						f.quoted = true
					}
				}
				found = append(found, f)
				// A struct reached by two paths at one level must cancel
				// out, as two fields of one name would; a copy says so.
				if count[p.typ] > 1 {
					found = append(found, found[len(found)-1])
				}
			}
		}
	}
	found = dominantFields(found)
	for i := range found {
		f := &found[i]
		f.enc = typeEncoder(f.typ)
		if f.omitZero {
			f.isZero = zeroTest(f.typ)
		}
	}
	return found
}

// dominantFields keeps, for each name, the shallowest field, preferring a
// tagged one; a tie leaves the name out altogether. The result is in
// declaration (index) order.
func dominantFields(fields []structField) []structField {
	slices.SortStableFunc(fields, func(a, b structField) int {
		if c := strings.Compare(a.name, b.name); c != 0 {
			return c
		}
		if c := cmp.Compare(len(a.index), len(b.index)); c != 0 {
			return c
		}
		if a.tagged != b.tagged {
			if a.tagged {
				return -1
			}
			return 1
		}
		return slices.Compare(a.index, b.index)
	})
	out := fields[:0]
	for i := 0; i < len(fields); {
		j := i + 1
		for j < len(fields) && fields[j].name == fields[i].name {
			j++
		}
		group := fields[i:j]
		if len(group) == 1 || len(group[0].index) != len(group[1].index) || group[0].tagged != group[1].tagged {
			out = append(out, group[0])
		}
		i = j
	}
	slices.SortFunc(out, func(a, b structField) int { return slices.Compare(a.index, b.index) })
	return out
}

func hasOption(opts, want string) bool {
	for opts != "" {
		var o string
		o, opts, _ = strings.Cut(opts, ",")
		if o == want {
			return true
		}
	}
	return false
}

// validTagName accepts the names encoding/json accepts: letters, digits
// and ASCII punctuation other than quotes, backslash and comma.
func validTagName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", r):
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			return false
		}
	}
	return true
}

type isZeroer interface{ IsZero() bool }

var isZeroerType = reflect.TypeFor[isZeroer]()

// zeroTest returns the omitzero test for t: its IsZero method when it has
// one (time.Time does), else the language's zero value.
func zeroTest(t reflect.Type) func(reflect.Value) bool {
	switch {
	case t.Kind() == reflect.Interface && t.Implements(isZeroerType):
		return func(v reflect.Value) bool {
			// Calling IsZero through a nil interface or nil pointer panics.
			return v.IsNil() ||
				v.Elem().Kind() == reflect.Pointer && v.Elem().IsNil() ||
				v.Interface().(isZeroer).IsZero()
		}
	case t.Kind() == reflect.Pointer && t.Implements(isZeroerType):
		return func(v reflect.Value) bool {
			return v.IsNil() || v.Interface().(isZeroer).IsZero()
		}
	case t.Implements(isZeroerType):
		return func(v reflect.Value) bool { return v.Interface().(isZeroer).IsZero() }
	case reflect.PointerTo(t).Implements(isZeroerType):
		return func(v reflect.Value) bool {
			if !v.CanAddr() {
				c := reflect.New(t).Elem()
				c.Set(v)
				v = c
			}
			return v.Addr().Interface().(isZeroer).IsZero()
		}
	}
	return reflect.Value.IsZero
}

// isEmpty is the omitempty test of encoding/json.
func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64,
		reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}
