package presenter

import (
	"cmp"
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unsafe"
)

// writer writes a presented result as the JSON encoding/json would write,
// but for what its shapes change: redacted fields hold their marker or
// are left out, collections a presenter limits are cut. On the way it
// hands each presented value, whole, to its presenter, whose rules and
// suggestions it collects in notes. Values without a shape are written by
// encoding/json itself.
type writer struct {
	buf    []byte
	shapes *shaper
	notes  Notes
	path   []string // where the writer is: field names and "[]"
}

// write writes v, of shape sh (nil: as encoding/json does). addr is
// whether encoding/json would see v as addressable, which decides whether
// a pointer receiver's MarshalJSON runs; v itself is always addressable,
// so that vurb can read fields encoding/json reads through unexported
// embedded structs.
func (w *writer) write(v reflect.Value, sh *shape, addr bool) error {
	if sh == nil {
		return w.leaf(v, addr)
	}
	switch sh.kind {
	case shapeMarshaled:
		if sh.guard {
			if err := w.shapes.checkHeld(v); err != nil {
				return err
			}
		}
		w.observe(sh.pres, v)
		return w.leaf(v, addr)
	case shapeStruct:
		return w.object(v, sh, addr)
	case shapePointer:
		if v.IsNil() {
			w.buf = append(w.buf, "null"...)
			return nil
		}
		return w.write(v.Elem(), sh.elem, true)
	case shapeSlice:
		if v.IsNil() {
			w.buf = append(w.buf, "null"...)
			return nil
		}
		return w.list(v, sh, true)
	case shapeArray:
		return w.list(v, sh, addr)
	case shapeMap:
		return w.mapping(v, sh)
	case shapeInterface:
		if v.IsNil() {
			w.buf = append(w.buf, "null"...)
			return nil
		}
		e := v.Elem()
		esh, err := w.shapes.dynamicOf(e.Type())
		if err != nil {
			return err
		}
		return w.write(addressable(e), esh, false)
	}
	return fmt.Errorf("vurb: internal error: shape of kind %d", sh.kind)
}

// object writes a struct field by field.
func (w *writer) object(v reflect.Value, sh *shape, addr bool) error {
	w.observe(sh.pres, v)
	w.buf = append(w.buf, '{')
	first := true
	for i := range sh.fields {
		f := &sh.fields[i]
		fv, err := v.FieldByIndexErr(f.index)
		if err != nil {
			continue // under a nil embedded pointer: encoding/json leaves it out too
		}
		fv = readable(fv)
		if f.omitEmpty && isEmptyValue(fv) || f.omitZero && f.zero(fv) || f.omitted {
			continue
		}
		if !first {
			w.buf = append(w.buf, ',')
		}
		first = false
		w.buf = append(w.buf, f.key...)
		switch {
		case f.redacted:
			w.buf = append(w.buf, f.marker...)
		case f.quoted:
			if err := w.quoted(fv); err != nil {
				return err
			}
		case f.scalar:
			var ok bool
			if w.buf, ok = appendScalar(w.buf, fv); !ok {
				if err := w.leaf(fv, addr); err != nil {
					return err
				}
			}
		default:
			w.path = append(w.path, f.name)
			err := w.write(fv, f.elem, addr)
			w.path = w.path[:len(w.path)-1]
			if err != nil {
				return err
			}
		}
	}
	w.buf = append(w.buf, '}')
	return nil
}

// list writes a slice or an array, cut to its presenter's limit.
func (w *writer) list(v reflect.Value, sh *shape, addr bool) error {
	n := v.Len()
	keep := n
	if sh.limit != nil && n > sh.limit.limit {
		keep = sh.limit.limit
		w.notes.cut(pathString(w.path), sh.limit.typ, keep, n)
	}
	w.buf = append(w.buf, '[')
	w.path = append(w.path, "[]")
	defer func() { w.path = w.path[:len(w.path)-1] }()
	for i := range keep {
		if i > 0 {
			w.buf = append(w.buf, ',')
		}
		if err := w.write(v.Index(i), sh.elem, addr); err != nil {
			return err
		}
	}
	w.buf = append(w.buf, ']')
	return nil
}

// mapping writes a map with its keys sorted, as encoding/json does.
func (w *writer) mapping(v reflect.Value, sh *shape) error {
	if v.IsNil() {
		w.buf = append(w.buf, "null"...)
		return nil
	}
	type entry struct {
		key string
		val reflect.Value
	}
	entries := make([]entry, 0, v.Len())
	for it := v.MapRange(); it.Next(); {
		k, err := sh.key(it.Key())
		if err != nil {
			return err
		}
		entries = append(entries, entry{k, addressable(it.Value())})
	}
	slices.SortFunc(entries, func(a, b entry) int { return cmp.Compare(a.key, b.key) })
	w.buf = append(w.buf, '{')
	w.path = append(w.path, "{}")
	defer func() { w.path = w.path[:len(w.path)-1] }()
	for i, e := range entries {
		if i > 0 {
			w.buf = append(w.buf, ',')
		}
		key, _ := json.Marshal(e.key)
		w.buf = append(append(w.buf, key...), ':')
		if err := w.write(e.val, sh.elem, false); err != nil {
			return err
		}
	}
	w.buf = append(w.buf, '}')
	return nil
}

// pathString writes where the writer is for a model:
// "customers[].invoices", "*" for a map's values.
func pathString(segs []string) string {
	var b strings.Builder
	for _, s := range segs {
		switch {
		case s == "[]":
			b.WriteString(s)
		case b.Len() > 0 && s == "{}":
			b.WriteString(".*")
		case s == "{}":
			b.WriteString("*")
		default:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(s)
		}
	}
	return b.String()
}

// leaf writes v with encoding/json.
func (w *writer) leaf(v reflect.Value, addr bool) error {
	var x any
	if addr {
		x = v.Addr().Interface() // a pointer: encoding/json sees an addressable value behind it
	} else {
		x = v.Interface()
	}
	data, err := json.Marshal(x)
	if err != nil {
		return err
	}
	w.buf = append(w.buf, data...)
	return nil
}

// quoted writes a field tagged ",string": the JSON of its value inside a
// JSON string.
func (w *writer) quoted(v reflect.Value) error {
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			w.buf = append(w.buf, "null"...)
			return nil
		}
		v = v.Elem()
	}
	data, err := json.Marshal(v.Interface())
	if err != nil {
		return err
	}
	if v.Kind() == reflect.String {
		data, _ = json.Marshal(string(data))
		w.buf = append(w.buf, data...)
		return nil
	}
	w.buf = append(append(append(w.buf, '"'), data...), '"')
	return nil
}

func (w *writer) observe(p *Def, v reflect.Value) {
	if p == nil {
		return
	}
	w.notes.met(p)
	if p.observe != nil {
		p.observe(v, &w.notes)
	}
}

// readable is v with the read-only flag of a value reached through an
// unexported embedded struct cleared: encoding/json reads such fields, and
// so must vurb. v is addressable: every value the writer holds is.
func readable(v reflect.Value) reflect.Value {
	if v.CanInterface() {
		return v
	}
	return reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
}

// addressable is a copy of v that can be addressed (v is a map value or
// an interface's dynamic value).
func addressable(v reflect.Value) reflect.Value {
	c := reflect.New(v.Type()).Elem()
	c.Set(v)
	return c
}

// isEmptyValue is encoding/json's omitempty test.
func isEmptyValue(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}

// mapKeyName names a map key of type t as encoding/json does: strings as
// they are, then encoding.TextMarshaler, then integers in decimal.
func mapKeyName(t reflect.Type) func(reflect.Value) (string, error) {
	switch {
	case t.Kind() == reflect.String:
		return func(k reflect.Value) (string, error) { return k.String(), nil }
	case t.Implements(typeTextMarshaler):
		return func(k reflect.Value) (string, error) {
			if k.Kind() == reflect.Pointer && k.IsNil() {
				return "", nil
			}
			b, err := k.Interface().(encoding.TextMarshaler).MarshalText()
			return string(b), err
		}
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return func(k reflect.Value) (string, error) { return strconv.FormatInt(k.Int(), 10), nil }
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return func(k reflect.Value) (string, error) { return strconv.FormatUint(k.Uint(), 10), nil }
	}
	return func(k reflect.Value) (string, error) {
		return "", &json.UnsupportedTypeError{Type: t}
	}
}
