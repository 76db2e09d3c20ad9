package toon

import (
	"encoding"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"reflect"
)

// The encoders in this file defer to a type's own idea of its JSON form.

func hasMarshaler(t reflect.Type) bool {
	return t.Implements(marshalerType) || t.Implements(textMarshalerType)
}

// condAddr picks the pointer-receiver encoder when v is addressable.
func condAddr(addr, plain encodeFunc) encodeFunc {
	return func(b *builder, v reflect.Value, dst *value) error {
		if v.CanAddr() {
			return addr(b, v, dst)
		}
		return plain(b, v, dst)
	}
}

func isNilRef(v reflect.Value) bool {
	return (v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface) && v.IsNil()
}

func marshalerEncoder(b *builder, v reflect.Value, dst *value) error {
	if isNilRef(v) {
		dst.kind = kindNull
		return nil
	}
	return callMarshaler(b, v.Type(), v.Interface().(json.Marshaler), dst)
}

func addrMarshalerEncoder(b *builder, v reflect.Value, dst *value) error {
	return callMarshaler(b, v.Type(), v.Addr().Interface().(json.Marshaler), dst)
}

// callMarshaler reads what MarshalJSON returns with the order-preserving
// JSON reader, so a type that controls its key order keeps it.
func callMarshaler(b *builder, t reflect.Type, m json.Marshaler, dst *value) error {
	data, err := m.MarshalJSON()
	if err != nil {
		return fmt.Errorf("toon: calling MarshalJSON for type %s: %w", t, err)
	}
	v, err := parseJSON(data)
	if err != nil {
		return fmt.Errorf("toon: MarshalJSON for type %s returned invalid JSON: %w", t, err)
	}
	b.size += len(data)
	key := dst.key
	*dst = v
	dst.key = key
	return nil
}

func textMarshalerEncoder(b *builder, v reflect.Value, dst *value) error {
	if isNilRef(v) {
		dst.kind = kindNull
		return nil
	}
	return callTextMarshaler(b, v.Type(), v.Interface().(encoding.TextMarshaler), dst)
}

func addrTextMarshalerEncoder(b *builder, v reflect.Value, dst *value) error {
	return callTextMarshaler(b, v.Type(), v.Addr().Interface().(encoding.TextMarshaler), dst)
}

func callTextMarshaler(b *builder, t reflect.Type, m encoding.TextMarshaler, dst *value) error {
	text, err := m.MarshalText()
	if err != nil {
		return fmt.Errorf("toon: calling MarshalText for type %s: %w", t, err)
	}
	b.size += len(text) + 2
	dst.kind, dst.str = kindString, string(text)
	return nil
}

// numberEncoder writes a json.Number as the number it spells; like
// encoding/json it treats "" as 0 and rejects anything else that is not
// a JSON number.
func numberEncoder(b *builder, v reflect.Value, dst *value) error {
	s := v.String()
	if s == "" {
		s = "0"
	}
	if !isNumber(s) {
		return fmt.Errorf("toon: invalid number literal %q", s)
	}
	b.size += len(s)
	dst.kind, dst.str = kindNumber, canonicalNumber(s)
	return nil
}

func bytesEncoder(b *builder, v reflect.Value, dst *value) error {
	if v.IsNil() {
		dst.kind = kindNull
		return nil
	}
	dst.kind, dst.str = kindString, base64.StdEncoding.EncodeToString(v.Bytes())
	b.size += len(dst.str)
	return nil
}
