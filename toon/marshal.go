package toon

import (
	"encoding"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
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
	var root value
	if err := b.build(reflect.ValueOf(v), &root); err != nil {
		return nil, err
	}
	return encode(&root, buildOptions(opts), b.size), nil
}

// maxDepth bounds nesting, which is how a cyclic pointer structure is
// caught: it would otherwise recurse forever.
const maxDepth = 10000

// builder turns Go values into the model.
type builder struct {
	depth int
	size  int     // rough output size, to size the output buffer once
	slab  []value // preallocated nodes handed out by alloc
}

// alloc returns an empty slice with room for n nodes, carved from a shared
// slab so that a thousand rows cost a few allocations, not a thousand.
func (b *builder) alloc(n int) []value {
	if n > 256 {
		return make([]value, 0, n)
	}
	if len(b.slab) < n {
		b.slab = make([]value, 1024)
	}
	s := b.slab[:0:n]
	b.slab = b.slab[n:]
	return s
}

func (b *builder) build(v reflect.Value, dst *value) error {
	if !v.IsValid() {
		dst.kind = kindNull
		return nil
	}
	return typeEncoder(v.Type())(b, v, dst)
}

func (b *builder) enter(t reflect.Type) error {
	b.depth++
	if b.depth > maxDepth {
		return fmt.Errorf("toon: %s nests deeper than %d levels (a pointer cycle?)", t, maxDepth)
	}
	return nil
}

// encodeFunc converts one Go value of a known type into *dst, which holds
// a zero node (or a member whose key the caller sets afterwards). Writing
// in place spares copying nodes through return values.
type encodeFunc func(b *builder, v reflect.Value, dst *value) error

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
	forward := encodeFunc(func(b *builder, v reflect.Value, dst *value) error {
		wg.Wait()
		return f(b, v, dst)
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
		return boolEncoder
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return intEncoder
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return uintEncoder
	case reflect.Float32:
		return floatEncoder(kindFloat32)
	case reflect.Float64:
		return floatEncoder(kindFloat)
	case reflect.String:
		if t == numberType {
			return numberEncoder
		}
		return stringEncoder
	case reflect.Interface:
		return interfaceEncoder
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
	return func(*builder, reflect.Value, *value) error {
		return &UnsupportedTypeError{Type: t}
	}
}

func boolEncoder(b *builder, v reflect.Value, dst *value) error {
	b.size += 6
	dst.kind = kindBool
	if v.Bool() {
		dst.num = 1
	}
	return nil
}

func intEncoder(b *builder, v reflect.Value, dst *value) error {
	b.size += 8
	dst.kind, dst.num = kindInt, uint64(v.Int())
	return nil
}

func uintEncoder(b *builder, v reflect.Value, dst *value) error {
	b.size += 8
	dst.kind, dst.num = kindUint, v.Uint()
	return nil
}

// floatEncoder keeps float32 apart so it is printed with the fewest
// digits that identify a float32, as encoding/json does.
func floatEncoder(k kind) encodeFunc {
	return func(b *builder, v reflect.Value, dst *value) error {
		b.size += 10
		f := v.Float()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			dst.kind = kindNull
			return nil
		}
		dst.kind, dst.num = k, math.Float64bits(f)
		return nil
	}
}

func stringEncoder(b *builder, v reflect.Value, dst *value) error {
	dst.kind, dst.str = kindString, v.String()
	b.size += len(dst.str) + 2
	return nil
}

func interfaceEncoder(b *builder, v reflect.Value, dst *value) error {
	if v.IsNil() {
		dst.kind = kindNull
		return nil
	}
	return b.build(v.Elem(), dst)
}
