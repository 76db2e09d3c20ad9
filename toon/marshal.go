package toon

import (
	"encoding"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Marshal returns the TOON encoding of v. Go values map to the JSON data
// model exactly as encoding/json maps them, so a type marshals to the same
// keys and values in both formats: struct fields in declaration order under
// their json tag names (with "-", omitempty, omitzero and string), embedded
// struct fields promoted, map keys sorted, json.Marshaler and
// encoding.TextMarshaler honored (time.Time becomes its RFC 3339 string),
// pointers and interfaces followed, []byte as a base64 string, nil slices
// and maps as null. Two differences, both from the TOON spec (§3): NaN and
// ±Inf become null instead of an error, and numbers are written in
// canonical decimal form. Options: WithDelimiter, WithIndent,
// WithKeyFolding, WithFlattenDepth.
func Marshal(v any, opts ...Option) ([]byte, error) {
	var b builder
	val, err := b.build(reflect.ValueOf(v))
	if err != nil {
		return nil, err
	}
	return encode(&val, buildOptions(opts)), nil
}

// maxDepth bounds nesting, which is how a cyclic pointer structure is
// caught: it would otherwise recurse forever.
const maxDepth = 10000

// builder turns Go values into the model; it only tracks depth.
type builder struct{ depth int }

func (b *builder) build(v reflect.Value) (value, error) {
	if !v.IsValid() {
		return value{}, nil
	}
	return typeEncoder(v.Type())(b, v)
}

func (b *builder) enter(t reflect.Type) error {
	b.depth++
	if b.depth > maxDepth {
		return fmt.Errorf("toon: %s nests deeper than %d levels (a pointer cycle?)", t, maxDepth)
	}
	return nil
}

// encodeFunc converts one Go value of a known type to the model.
type encodeFunc func(b *builder, v reflect.Value) (value, error)

var encoderCache sync.Map // reflect.Type -> encodeFunc

// typeEncoder returns the encoder of t, built once per type: reflection
// over a type's shape happens on first use, not per value.
func typeEncoder(t reflect.Type) encodeFunc {
	if f, ok := encoderCache.Load(t); ok {
		return f.(encodeFunc)
	}
	// A recursive type reaches itself while its encoder is being built;
	// it gets a forwarder that waits for the real encoder.
	var (
		wg sync.WaitGroup
		f  encodeFunc
	)
	wg.Add(1)
	forward := encodeFunc(func(b *builder, v reflect.Value) (value, error) {
		wg.Wait()
		return f(b, v)
	})
	if prev, loaded := encoderCache.LoadOrStore(t, forward); loaded {
		return prev.(encodeFunc)
	}
	f = newTypeEncoder(t, true)
	wg.Done()
	encoderCache.Store(t, f)
	return f
}

var (
	marshalerType     = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
	numberType        = reflect.TypeFor[json.Number]()
)

func newTypeEncoder(t reflect.Type, allowAddr bool) encodeFunc {
	// Methods with pointer receivers apply when the value is addressable,
	// as in encoding/json.
	if t.Kind() != reflect.Pointer && allowAddr && reflect.PointerTo(t).Implements(marshalerType) {
		return condAddr(addrMarshalerEncoder, newTypeEncoder(t, false))
	}
	if t.Implements(marshalerType) {
		return marshalerEncoder
	}
	if t.Kind() != reflect.Pointer && allowAddr && reflect.PointerTo(t).Implements(textMarshalerType) {
		return condAddr(addrTextMarshalerEncoder, newTypeEncoder(t, false))
	}
	if t.Implements(textMarshalerType) {
		return textMarshalerEncoder
	}
	switch t.Kind() {
	case reflect.Bool:
		return func(_ *builder, v reflect.Value) (value, error) { return boolValue(v.Bool()), nil }
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return func(_ *builder, v reflect.Value) (value, error) {
			return value{kind: kindInt, num: uint64(v.Int())}, nil
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return func(_ *builder, v reflect.Value) (value, error) {
			return value{kind: kindUint, num: v.Uint()}, nil
		}
	case reflect.Float32, reflect.Float64:
		k := kindFloat
		if t.Kind() == reflect.Float32 {
			k = kindFloat32
		}
		return func(_ *builder, v reflect.Value) (value, error) {
			f := v.Float()
			if math.IsNaN(f) || math.IsInf(f, 0) {
				return value{}, nil
			}
			return value{kind: k, num: math.Float64bits(f)}, nil
		}
	case reflect.String:
		if t == numberType {
			return numberEncoder
		}
		return func(_ *builder, v reflect.Value) (value, error) { return stringValue(v.String()), nil }
	case reflect.Interface:
		return func(b *builder, v reflect.Value) (value, error) {
			if v.IsNil() {
				return value{}, nil
			}
			return b.build(v.Elem())
		}
	case reflect.Struct:
		return structEncoder(t)
	case reflect.Map:
		return mapEncoder(t)
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 && !hasMarshaler(reflect.PointerTo(t.Elem())) {
			return bytesEncoder
		}
		return sliceEncoder(t)
	case reflect.Array:
		return arrayEncoder(t)
	case reflect.Pointer:
		return pointerEncoder(t)
	}
	return func(*builder, reflect.Value) (value, error) {
		return value{}, &UnsupportedTypeError{Type: t}
	}
}

func hasMarshaler(t reflect.Type) bool {
	return t.Implements(marshalerType) || t.Implements(textMarshalerType)
}

func condAddr(addr, plain encodeFunc) encodeFunc {
	return func(b *builder, v reflect.Value) (value, error) {
		if v.CanAddr() {
			return addr(b, v)
		}
		return plain(b, v)
	}
}

func marshalerEncoder(b *builder, v reflect.Value) (value, error) {
	if (v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface) && v.IsNil() {
		return value{}, nil
	}
	return callMarshaler(v.Type(), v.Interface().(json.Marshaler))
}

func addrMarshalerEncoder(b *builder, v reflect.Value) (value, error) {
	return callMarshaler(v.Type(), v.Addr().Interface().(json.Marshaler))
}

func callMarshaler(t reflect.Type, m json.Marshaler) (value, error) {
	data, err := m.MarshalJSON()
	if err != nil {
		return value{}, fmt.Errorf("toon: calling MarshalJSON for type %s: %w", t, err)
	}
	v, err := parseJSON(data)
	if err != nil {
		return value{}, fmt.Errorf("toon: MarshalJSON for type %s returned invalid JSON: %w", t, err)
	}
	return v, nil
}

func textMarshalerEncoder(b *builder, v reflect.Value) (value, error) {
	if (v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface) && v.IsNil() {
		return value{}, nil
	}
	return callTextMarshaler(v.Type(), v.Interface().(encoding.TextMarshaler))
}

func addrTextMarshalerEncoder(b *builder, v reflect.Value) (value, error) {
	return callTextMarshaler(v.Type(), v.Addr().Interface().(encoding.TextMarshaler))
}

func callTextMarshaler(t reflect.Type, m encoding.TextMarshaler) (value, error) {
	text, err := m.MarshalText()
	if err != nil {
		return value{}, fmt.Errorf("toon: calling MarshalText for type %s: %w", t, err)
	}
	return stringValue(string(text)), nil
}

// numberEncoder writes a json.Number as the number it spells; like
// encoding/json it treats "" as 0 and rejects anything else that is not
// a JSON number.
func numberEncoder(_ *builder, v reflect.Value) (value, error) {
	s := v.String()
	if s == "" {
		s = "0"
	}
	if !isNumber(s) {
		return value{}, fmt.Errorf("toon: invalid number literal %q", s)
	}
	return value{kind: kindNumber, str: canonicalNumber(s)}, nil
}

func bytesEncoder(_ *builder, v reflect.Value) (value, error) {
	if v.IsNil() {
		return value{}, nil
	}
	return stringValue(base64.StdEncoding.EncodeToString(v.Bytes())), nil
}

func structEncoder(t reflect.Type) encodeFunc {
	fields := typeFields(t)
	return func(b *builder, v reflect.Value) (value, error) {
		if err := b.enter(t); err != nil {
			return value{}, err
		}
		defer func() { b.depth-- }()
		kids := make([]value, 0, len(fields))
		for i := range fields {
			f := &fields[i]
			fv, ok := fieldValue(v, f.index)
			if !ok || f.omitEmpty && isEmpty(fv) || f.omitZero && f.isZero(fv) {
				continue
			}
			m, err := f.enc(b, fv)
			if err != nil {
				return value{}, err
			}
			if f.quoted {
				m = quoteScalar(m)
			}
			m.key = f.name
			kids = append(kids, m)
		}
		return value{kind: kindObject, kids: kids}, nil
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
func quoteScalar(v value) value {
	switch v.kind {
	case kindNull, kindArray, kindObject:
		return v
	}
	return stringValue(string(appendJSON(nil, &v)))
}

func mapEncoder(t reflect.Type) encodeFunc {
	keyName := mapKeyFunc(t.Key())
	if keyName == nil {
		return func(*builder, reflect.Value) (value, error) {
			return value{}, &UnsupportedTypeError{Type: t}
		}
	}
	elem := typeEncoder(t.Elem())
	return func(b *builder, v reflect.Value) (value, error) {
		if v.IsNil() {
			return value{}, nil
		}
		if err := b.enter(t); err != nil {
			return value{}, err
		}
		defer func() { b.depth-- }()
		type entry struct {
			key string
			val reflect.Value
		}
		entries := make([]entry, 0, v.Len())
		for iter := v.MapRange(); iter.Next(); {
			k, err := keyName(iter.Key())
			if err != nil {
				return value{}, err
			}
			entries = append(entries, entry{k, iter.Value()})
		}
		slices.SortFunc(entries, func(a, b entry) int { return strings.Compare(a.key, b.key) })
		kids := make([]value, len(entries))
		for i, e := range entries {
			m, err := elem(b, e.val)
			if err != nil {
				return value{}, err
			}
			m.key = e.key
			kids[i] = m
		}
		return value{kind: kindObject, kids: kids}, nil
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
	return func(b *builder, v reflect.Value) (value, error) {
		if v.IsNil() {
			return value{}, nil
		}
		return arr(b, v)
	}
}

func arrayEncoder(t reflect.Type) encodeFunc {
	elem := typeEncoder(t.Elem())
	return func(b *builder, v reflect.Value) (value, error) {
		if err := b.enter(t); err != nil {
			return value{}, err
		}
		defer func() { b.depth-- }()
		kids := make([]value, v.Len())
		for i := range kids {
			e, err := elem(b, v.Index(i))
			if err != nil {
				return value{}, err
			}
			kids[i] = e
		}
		return value{kind: kindArray, kids: kids}, nil
	}
}

func pointerEncoder(t reflect.Type) encodeFunc {
	elem := typeEncoder(t.Elem())
	return func(b *builder, v reflect.Value) (value, error) {
		if v.IsNil() {
			return value{}, nil
		}
		if err := b.enter(t); err != nil {
			return value{}, err
		}
		defer func() { b.depth-- }()
		return elem(b, v.Elem())
	}
}
