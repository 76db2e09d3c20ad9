package toon

import (
	"encoding"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// The encoders in this file build objects and arrays; each counts one
// level of depth so that cyclic data fails instead of recursing forever.

func structEncoder(t reflect.Type) encodeFunc {
	fields := typeFields(t)
	return func(b *builder, v reflect.Value, dst *value) error {
		if err := b.enter(t); err != nil {
			return err
		}
		kids := b.alloc(len(fields))
		for i := range fields {
			f := &fields[i]
			fv, ok := fieldValue(v, f.index)
			if !ok || f.omitEmpty && isEmpty(fv) || f.omitZero && f.isZero(fv) {
				continue
			}
			kids = kids[:len(kids)+1]
			m := &kids[len(kids)-1]
			if err := f.enc(b, fv, m); err != nil {
				return err
			}
			if f.quoted {
				quoteScalar(m)
			}
			m.key = f.name
		}
		b.depth--
		dst.kind, dst.kids = kindObject, kids
		return nil
	}
}

// fieldValue follows index through embedded structs; ok is false when an
// embedded pointer on the way is nil, and the field then does not exist.
func fieldValue(v reflect.Value, index []int) (reflect.Value, bool) {
	if len(index) == 1 {
		return v.Field(index[0]), true
	}
	for i, x := range index {
		if i > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return reflect.Value{}, false
			}
			v = v.Elem()
		}
		v = v.Field(x)
	}
	return v, true
}

// quoteScalar applies the ",string" tag option: a scalar is replaced by a
// string holding its JSON text, as encoding/json writes it.
func quoteScalar(v *value) {
	switch v.kind {
	case kindNull, kindArray, kindObject:
		return
	}
	*v = stringValue(string(appendJSON(nil, v)))
}

func mapEncoder(t reflect.Type) encodeFunc {
	keyName := mapKeyFunc(t.Key())
	if keyName == nil {
		return func(*builder, reflect.Value, *value) error {
			return &UnsupportedTypeError{Type: t}
		}
	}
	elem := typeEncoder(t.Elem())
	return func(b *builder, v reflect.Value, dst *value) error {
		if v.IsNil() {
			dst.kind = kindNull
			return nil
		}
		if err := b.enter(t); err != nil {
			return err
		}
		type entry struct {
			key string
			val reflect.Value
		}
		entries := make([]entry, 0, v.Len())
		for iter := v.MapRange(); iter.Next(); {
			k, err := keyName(iter.Key())
			if err != nil {
				return err
			}
			entries = append(entries, entry{k, iter.Value()})
		}
		slices.SortFunc(entries, func(a, b entry) int { return strings.Compare(a.key, b.key) })
		kids := make([]value, len(entries))
		for i, e := range entries {
			if err := elem(b, e.val, &kids[i]); err != nil {
				return err
			}
			kids[i].key = e.key
			b.size += len(e.key) + 3
		}
		b.depth--
		dst.kind, dst.kids = kindObject, kids
		return nil
	}
}

// mapKeyFunc returns how keys of type t become object keys, with the rules
// of encoding/json, or nil when t cannot be a key.
func mapKeyFunc(t reflect.Type) func(reflect.Value) (string, error) {
	switch {
	case t.Kind() == reflect.String:
		return func(k reflect.Value) (string, error) { return k.String(), nil }
	case t.Implements(textMarshalerType):
		return func(k reflect.Value) (string, error) {
			if k.Kind() == reflect.Pointer && k.IsNil() {
				return "", nil
			}
			text, err := k.Interface().(encoding.TextMarshaler).MarshalText()
			if err != nil {
				return "", fmt.Errorf("toon: calling MarshalText for map key type %s: %w", t, err)
			}
			return string(text), nil
		}
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return func(k reflect.Value) (string, error) { return strconv.FormatInt(k.Int(), 10), nil }
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return func(k reflect.Value) (string, error) { return strconv.FormatUint(k.Uint(), 10), nil }
	}
	return nil
}

func sliceEncoder(t reflect.Type) encodeFunc {
	arr := arrayEncoder(t)
	return func(b *builder, v reflect.Value, dst *value) error {
		if v.IsNil() {
			dst.kind = kindNull
			return nil
		}
		return arr(b, v, dst)
	}
}

func arrayEncoder(t reflect.Type) encodeFunc {
	elem := typeEncoder(t.Elem())
	return func(b *builder, v reflect.Value, dst *value) error {
		if err := b.enter(t); err != nil {
			return err
		}
		kids := make([]value, v.Len())
		for i := range kids {
			if err := elem(b, v.Index(i), &kids[i]); err != nil {
				return err
			}
		}
		b.depth--
		dst.kind, dst.kids = kindArray, kids
		return nil
	}
}

func pointerEncoder(t reflect.Type) encodeFunc {
	elem := typeEncoder(t.Elem())
	return func(b *builder, v reflect.Value, dst *value) error {
		if v.IsNil() {
			dst.kind = kindNull
			return nil
		}
		if err := b.enter(t); err != nil {
			return err
		}
		err := elem(b, v.Elem(), dst)
		b.depth--
		return err
	}
}
