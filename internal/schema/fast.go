package schema

import (
	"encoding/json"
	"reflect"
	"strings"
	"time"
	"unicode"
	"unsafe"

	"github.com/go-playground/validator/v10"
)

// The fast path: for the common input struct (a handful of strings, numbers
// and bools, maybe behind pointers, with simple validate rules) Decode stores
// the values and checks the rules itself, after the pre-scan, instead of
// calling encoding/json and the validator. Both are general and reflective;
// on a small struct they cost more than the call they guard.
//
// The fast path only ever says yes: it accepts exactly what
// json.Unmarshal + validator.Struct accept, with the same values in the
// struct, and on anything else (a failed rule, a value it does not expect)
// Decode throws its work away and takes the slow path, which writes today's
// error texts. So a type is eligible only when every field's decoding and
// every rule is one this file mirrors exactly; anything else keeps the type
// on the slow path.
//
// "Exactly" presumes the rules mean what they mean in a fresh validator, so
// a plan is only compiled for a Validator that schema made itself
// (NewValidator(nil)): its only additions come through RegisterRule, which
// refuses every built-in name. A caller's own *validator.Validate may have
// redefined min or max, or added struct-level checks, which a plan could
// not see; its Codecs keep the slow path.

// fastKind is the Go kind of an eligible field's value.
type fastKind uint8

const (
	fastString fastKind = iota
	fastBool
	fastInt
	fastUint
	fastFloat
)

// fastPlan is the compiled fast path of one eligible struct type.
type fastPlan struct {
	fields   []fastField    // parallel to the struct's structInfo.fields
	index    map[string]int // JSON name -> position, when fields are too many to search in order
	defaults bool           // some field has a default: decode tracks which fields it stored
}

// fastLinearMax is how many fields are searched in order before a map
// lookup is cheaper.
const fastLinearMax = 8

// fastField is one decoded field: where it lives in the struct, what it
// holds and the rules that check it.
type fastField struct {
	name   string
	offset uintptr // from the start of the struct
	kind   fastKind
	size   uintptr      // bytes of the value (not of the pointer): 1, 2, 4 or 8 for numbers
	ptr    bool         // *T: encoding/json allocates one T; nil when absent or null
	elem   reflect.Type // T, the value's own type, to allocate a pointer field's value
	rules  []fastRule   // the validate tag, compiled; nil: no rules
	nilOK  bool         // a nil pointer passes the rules: no tag, or the tag starts with omitempty
	def    []byte       // the default, as JSON, stored when the field is absent; nil for none
}

var (
	typeValuer   = reflect.TypeFor[validator.Valuer]()
	typeNumber   = reflect.TypeFor[json.Number]()
	typeDuration = reflect.TypeFor[time.Duration]()
)

// compileFast returns the fast plan of struct type t, or nil when t must
// keep the slow path. si is t's structInfo: the fields the pre-scan knows.
func compileFast(t reflect.Type, si *structInfo, sh *shape) *fastPlan {
	// A custom decoder or validator value on the struct itself changes
	// everything below; a struct convertible to time.Time (type T time.Time)
	// is one validator.Struct refuses to validate at all.
	if implements(t, typeUnmarshaler) || implements(t, typeTextUnmarshaler) || implements(t, typeValuer) ||
		t.ConvertibleTo(timeType) {
		return nil
	}
	decoded := make(map[int]bool, len(si.fields))
	for i := range si.fields {
		if len(si.fields[i].index) != 1 {
			return nil // promoted from an embedded struct
		}
		decoded[si.fields[i].index[0]] = true
	}
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		switch {
		case sf.Anonymous:
			// Embedded fields: encoding/json flattens and the validator
			// walks them, each with its own rules; not worth mirroring.
			return nil
		case !sf.IsExported():
			// Neither encoding/json nor the validator reads it.
		case decoded[i]:
		default:
			// json:"-": never decoded, so zero, but the validator still
			// reads it. Without rules and without a struct to walk into, it
			// passes; anything else is the slow path's business.
			if tag := sf.Tag.Get("validate"); (tag != "" && tag != "-") || deref(sf.Type).Kind() == reflect.Struct {
				return nil
			}
		}
	}
	p := &fastPlan{}
	for i := range si.fields {
		ff, ok := compileFastField(&si.fields[i])
		if !ok {
			return nil
		}
		if d := si.defaults[i]; d != nil {
			ff.def = []byte(d.literal)
			p.defaults = true
		}
		p.fields = append(p.fields, ff)
	}
	if p.defaults && len(p.fields) > 64 {
		return nil // the fields stored are tracked in one word
	}
	if len(p.fields) > fastLinearMax {
		p.index = sh.index
	}
	return p
}

// compileFastField compiles one decoded field, or reports that it is not
// eligible.
func compileFastField(f *fieldInfo) (fastField, bool) {
	if f.quoted {
		return fastField{}, false
	}
	// encoding/json ignores a tag name it finds invalid and uses the Go
	// name; structFields does not, so the two would disagree on the key.
	if name, _, _ := strings.Cut(f.sf.Tag.Get("json"), ","); name != "" && !isValidJSONName(name) {
		return fastField{}, false
	}
	ft := f.typ()
	ff := fastField{name: f.name, offset: f.sf.Offset}
	if ft.Kind() == reflect.Pointer {
		if ft.Name() != "" {
			return fastField{}, false
		}
		ff.ptr = true
		ft = ft.Elem()
	}
	kind, ok := fastKindOf(ft)
	if !ok {
		return fastField{}, false
	}
	ff.kind, ff.size, ff.elem = kind, ft.Size(), ft
	bits := 64
	if ft.Kind() == reflect.Float32 {
		bits = 32
	}
	ff.rules, ok = compileRules(f.sf.Tag.Get("validate"), kind, bits)
	if !ok {
		return fastField{}, false
	}
	ff.nilOK = len(ff.rules) == 0 || ff.rules[0].op == opOmitEmpty
	return ff, true
}

// fastKindOf reports whether values of t are decoded and validated by their
// Go kind alone, and which kind that is. A type with its own decoding
// (UnmarshalJSON, UnmarshalText), its own validated value (ValidatorValue),
// json.Number (encoding/json reads a number into it) or time.Duration (the
// validator reads its rule parameters as durations) is not.
func fastKindOf(t reflect.Type) (fastKind, bool) {
	if t == typeNumber || t == typeDuration ||
		implements(t, typeUnmarshaler) || implements(t, typeTextUnmarshaler) || implements(t, typeValuer) {
		return 0, false
	}
	switch t.Kind() {
	case reflect.String:
		return fastString, true
	case reflect.Bool:
		return fastBool, true
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return fastInt, true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return fastUint, true
	case reflect.Float32, reflect.Float64:
		return fastFloat, true
	}
	return 0, false // uintptr too: the validator's oneof has no case for it
}

// isValidJSONName is encoding/json's isValidTag: the names it accepts from a
// json tag.
func isValidJSONName(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			return false
		}
	}
	return true
}

// at is the address of field f in the struct at base.
func (f *fastField) at(base unsafe.Pointer) unsafe.Pointer {
	return unsafe.Add(base, f.offset)
}
