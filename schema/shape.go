package schema

import (
	"encoding"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strings"
)

// kind is the JSON kind a value must have, as the pre-scan checks it.
type kind uint8

const (
	kindAny    kind = iota // any JSON value (interface{}, json.RawMessage, custom UnmarshalJSON)
	kindString             // also []byte (base64) and encoding.TextUnmarshaler types
	kindTime               // time.Time: a string in RFC 3339
	kindBool
	kindInt   // signed integer with a range
	kindUint  // unsigned integer with a range
	kindFloat // float32 or float64
	kindObject
	kindMap
	kindArray
)

// jsonType names a kind the way the schema and the messages do.
func (k kind) jsonType() string {
	switch k {
	case kindString, kindTime:
		return "string"
	case kindBool:
		return "boolean"
	case kindInt, kindUint:
		return "integer"
	case kindFloat:
		return "number"
	case kindObject, kindMap:
		return "object"
	case kindArray:
		return "array"
	}
	return "any"
}

// shape is the compiled expectation for one JSON value: the pre-scan walks
// the arguments and this tree side by side, without reflection.
type shape struct {
	kind   kind
	goType string // the Go kind's name for range messages: "int8", "uint", "float32"
	bits   int    // float size
	lo     int64  // kindInt range
	hi     uint64 // kindInt and kindUint upper bound

	// kindObject
	index    map[string]int // JSON name -> position in fields
	fields   []shapeField
	names    []string // accepted names, for suggestions
	accepted string   // "a, b, c", precomputed for the unknown-field message
	reqMask  uint64   // required fields among the first 64
	anyReq   bool

	// kindString, kindInt, kindUint: the values an enum tag allows (nil:
	// any), and their list for the message about any other
	enum     []string
	enumList string

	// kindString, kindInt, kindUint, kindFloat, kindBool: the rule that
	// refuses the zero value when it is sent ("", 0, false), although
	// omitempty would let the validator skip it (nil: none). An absent
	// optional property is zero too, and passes; a sent zero is held to
	// the rules the schema states (rules.go, zeroRule).
	zero *rule

	// kindObject: the positions of the fields with a default, applied
	// when the field is absent.
	defaults []int

	// kindArray, kindMap
	elem     *shape
	fixed    bool // a Go array: at most fixedLen elements fit
	fixedLen int
}

type shapeField struct {
	name     string
	shape    *shape
	required bool
	// redact is whether the field is tagged redact: no message echoes
	// what was sent in it, or in what it holds (echo.go).
	redact bool
	def    string // `"name":value`, the member a default inserts; "" for none
}

var anyShape = &shape{kind: kindAny}

var (
	typeUnmarshaler     = reflect.TypeFor[json.Unmarshaler]()
	typeTextUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
)

func implements(t, iface reflect.Type) bool {
	return t.Implements(iface) || (t.Kind() != reflect.Pointer && reflect.PointerTo(t).Implements(iface))
}

// shapeCompiler builds the shape tree of one root type for validator v,
// which decides the required fields; memo makes a recursive type a cyclic
// shape instead of an endless one.
type shapeCompiler struct {
	v       *Validator
	memo    map[reflect.Type]*shape
	structs []reflect.Type // every struct type reached, for the Codec's conditional texts
}

// compileShape compiles the shape of t, and lists the struct types it reaches.
func compileShape(v *Validator, t reflect.Type) (*shape, []reflect.Type) {
	c := &shapeCompiler{v: v, memo: map[reflect.Type]*shape{}}
	sh := c.shapeOf(t, nil)
	return sh, c.structs
}

// shapeOf compiles type t; f, when not nil, is the field being compiled, to
// name it in a definition error.
func (c *shapeCompiler) shapeOf(t reflect.Type, f *fieldInfo) *shape {
	if s, ok := c.memo[t]; ok {
		return s
	}
	if t.Kind() == reflect.Pointer {
		return c.shapeOf(t.Elem(), f)
	}
	switch {
	case t == timeType:
		return &shape{kind: kindTime}
	case implements(t, typeUnmarshaler):
		return anyShape // the type decides what it accepts
	case implements(t, typeTextUnmarshaler):
		return &shape{kind: kindString}
	}
	switch t.Kind() {
	case reflect.Interface:
		if t.NumMethod() != 0 && f != nil {
			defPanic(f, "interface type %s cannot be decoded from JSON; use any or json.RawMessage", t)
		}
		return anyShape
	case reflect.String:
		return &shape{kind: kindString}
	case reflect.Bool:
		return &shape{kind: kindBool}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		bits := t.Bits()
		return &shape{kind: kindInt, goType: t.Kind().String(), lo: -1 << (bits - 1), hi: 1<<(bits-1) - 1}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		hi := uint64(math.MaxUint64)
		if t.Bits() < 64 {
			hi = 1<<t.Bits() - 1
		}
		return &shape{kind: kindUint, goType: t.Kind().String(), hi: hi}
	case reflect.Float32, reflect.Float64:
		return &shape{kind: kindFloat, goType: t.Kind().String(), bits: t.Bits()}
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 && !implements(t.Elem(), typeUnmarshaler) && !implements(t.Elem(), typeTextUnmarshaler) {
			return &shape{kind: kindString} // base64, as encoding/json reads []byte
		}
		s := &shape{kind: kindArray}
		c.memo[t] = s
		s.elem = c.shapeOf(t.Elem(), f)
		return s
	case reflect.Array:
		s := &shape{kind: kindArray, fixed: true, fixedLen: t.Len()}
		c.memo[t] = s
		s.elem = c.shapeOf(t.Elem(), f)
		return s
	case reflect.Map:
		switch k := t.Key(); {
		case k.Kind() == reflect.String, k.Kind() >= reflect.Int && k.Kind() <= reflect.Uintptr, implements(k, typeTextUnmarshaler):
		default:
			if f != nil {
				defPanic(f, "map key type %s cannot be decoded from JSON; use string keys", k)
			}
		}
		s := &shape{kind: kindMap}
		c.memo[t] = s
		s.elem = c.shapeOf(t.Elem(), f)
		return s
	case reflect.Struct:
		return c.object(t)
	}
	if f != nil {
		defPanic(f, "type %s cannot be decoded from JSON", t)
	}
	panic(fmt.Sprintf("schema: type %s cannot be decoded from JSON", t))
}

func (c *shapeCompiler) object(t reflect.Type) *shape {
	si := c.v.infoOf(t)
	s := &shape{kind: kindObject, index: make(map[string]int, len(si.fields))}
	c.memo[t] = s
	for i := range si.fields {
		f := &si.fields[i]
		s.index[f.name] = i
		s.names = append(s.names, f.name)
		_, redact := f.sf.Tag.Lookup("redact")
		s.fields = append(s.fields, shapeField{name: f.name, required: si.required[i], redact: redact})
		if si.required[i] {
			s.anyReq = true
			if i < 64 {
				s.reqMask |= 1 << i
			}
		}
	}
	s.accepted = strings.Join(s.names, ", ")
	for i := range si.fields {
		f := &si.fields[i]
		s.fields[i].shape = c.withRules(c.shapeOf(f.typ(), f), f.typ(), f.rules.levels)
		checkConstraintTags(f, s.fields[i].shape)
		if d := si.defaults[i]; d != nil {
			s.fields[i].def = jsonString(f.name) + ":" + d.literal
			s.defaults = append(s.defaults, i)
		}
	}
	c.structs = append(c.structs, t)
	return s
}
