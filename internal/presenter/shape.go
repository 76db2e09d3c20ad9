package presenter

import (
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/vurb-go/vurb/schema"
)

// A shape is how a result type is written when a presenter or a redaction
// reaches into it, compiled once per type from its reflect.Type: which
// fields are redacted, which presenter observes it, where a collection is
// cut. A type no presenter and no redaction reaches has no shape (nil),
// and encoding/json writes it as it always does. Shapes may form cycles,
// as recursive types do.
type shape struct {
	kind shapeKind
	typ  reflect.Type
	pres *Def // shapeStruct, shapeMarshaled: the type's presenter, or nil
	// guard is whether a shapeMarshaled value is checked (checkHeld)
	// before its method writes it: it can hold an interface.
	guard bool
	// fields are a shapeStruct's JSON properties, in order.
	fields []fieldShape
	// elem is the shape of a pointer's, slice's, array's or map's
	// elements; nil writes them as encoding/json does.
	elem *shape
	// limit is the presenter whose Limit cuts a slice or an array of its
	// type, or nil.
	limit *Def
	// key names a map's key as encoding/json does.
	key func(reflect.Value) (string, error)
}

type shapeKind uint8

const (
	shapeStruct    shapeKind = iota + 1 // written field by field
	shapeMarshaled                      // a type that marshals itself: observed, checked, written by its method
	shapePointer
	shapeSlice
	shapeArray
	shapeMap
	shapeInterface // the dynamic type's shape, looked up per value
)

// fieldShape is one JSON property of a shapeStruct.
type fieldShape struct {
	name                        string
	key                         []byte // `"name":`, escaped as encoding/json escapes it
	index                       []int
	omitEmpty, omitZero, quoted bool
	redacted, omitted           bool
	scalar                      bool   // a boolean, number or string the writer writes itself (scalar.go)
	marker                      []byte // the JSON of the marker of a redacted field
	elem                        *shape // the value's shape; nil writes it as encoding/json does
	zero                        func(reflect.Value) bool
}

var (
	typeMarshaler     = reflect.TypeFor[json.Marshaler]()
	typeTextMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
)

// marshalsItself reports whether encoding/json hands values of t to their
// own method (as a value or through a pointer).
func marshalsItself(t reflect.Type) bool {
	p := reflect.PointerTo(t)
	return t.Implements(typeMarshaler) || t.Implements(typeTextMarshaler) ||
		p.Implements(typeMarshaler) || p.Implements(typeTextMarshaler)
}

// shaper compiles shapes for one app. It is used at Build, under the
// build lock, and later only for types met behind interfaces, under mu.
// Interface values are always presented by their dynamic type: a value
// only the call reveals may carry a redact tag.
type shaper struct {
	byType map[reflect.Type]*Def

	mu      sync.Mutex
	memo    map[reflect.Type]*shape // nil value: the type needs no shape
	cache   sync.Map                // reflect.Type -> *shape, for dynamic types
	reached sync.Map                // reflect.Type -> *reach (sealed.go)
}

func newShaper(presenters []*Def) *shaper {
	s := &shaper{byType: map[reflect.Type]*Def{}, memo: map[reflect.Type]*shape{}}
	for _, p := range presenters {
		s.byType[p.typ] = p
	}
	return s
}

// of returns the shape of t, nil when nothing presents or redacts what t
// can hold. It panics on a presenter or a redact tag that cannot apply.
func (s *shaper) of(t reflect.Type) *shape {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.compile(t)
}

// dynamicOf is of for a type met at run time, cached lock-free. What
// of refuses at Build (a redaction vurb cannot apply) is an error here:
// the value is not sent.
func (s *shaper) dynamicOf(t reflect.Type) (sh *shape, err error) {
	if v, ok := s.cache.Load(t); ok {
		return v.(*shape), nil
	}
	defer func() {
		if r := recover(); r != nil {
			msg, ok := r.(string)
			if !ok {
				panic(r)
			}
			sh, err = nil, errors.New(msg)
		}
	}()
	sh = s.of(t)
	s.cache.Store(t, sh)
	return sh, nil
}

// compile finds every type reachable from t, decides which need a shape
// (a presenter, a redacted field, an interface to look into, or one of
// those further down), and builds those. It refuses (panics) before it
// remembers anything, so that a refused type met at run time is refused
// again at the next call. Callers hold mu.
func (s *shaper) compile(t reflect.Type) *shape {
	if sh, ok := s.memo[t]; ok {
		return sh
	}
	var order []reflect.Type
	where := map[reflect.Type]string{}
	var visit func(reflect.Type, []string)
	visit = func(t reflect.Type, path []string) {
		if _, done := s.memo[t]; done {
			return
		}
		if _, seen := where[t]; seen {
			return
		}
		where[t] = pathString(path)
		order = append(order, t)
		for _, c := range s.children(t) {
			visit(c.typ, append(path, c.seg...))
		}
	}
	visit(t, nil)
	defer func() { // a refusal met in fill: forget the shapes half made
		if r := recover(); r != nil {
			for _, u := range order {
				delete(s.memo, u)
			}
			panic(r)
		}
	}()
	for _, u := range order {
		s.refuse(u, where[u])
	}
	needs := map[reflect.Type]bool{}
	for _, u := range order {
		needs[u] = s.own(u)
	}
	for changed := true; changed; { // a fixpoint: recursive types reach themselves
		changed = false
		for _, u := range order {
			if !needs[u] && slices.ContainsFunc(s.children(u), func(c child) bool { return needs[c.typ] || s.memo[c.typ] != nil }) {
				needs[u], changed = true, true
			}
		}
	}
	for _, u := range order { // allocated first, so that cycles point at them
		if needs[u] {
			s.memo[u] = &shape{typ: u}
		} else {
			s.memo[u] = nil
		}
	}
	for _, u := range order {
		if sh := s.memo[u]; sh != nil {
			s.fill(sh)
		}
	}
	return s.memo[t]
}

// refuse panics when t, at where in the compiled type, cannot be
// written as its presenters and redact tags ask: it marshals itself, and
// it or something it holds is redacted.
func (s *shaper) refuse(t reflect.Type, where string) {
	if !marshalsItself(t) {
		return
	}
	if p := s.byType[t]; p != nil && len(p.fields) > 0 {
		panic(fmt.Sprintf("vurb: presenter of %s: %s marshals itself (MarshalJSON or MarshalText), so vurb cannot redact its fields; "+
			"leave them out in that method, or drop the method", t, t))
	}
	if t.Kind() == reflect.Struct && hasRedactTag(t) {
		panic(fmt.Sprintf("vurb: %s has redact tags but marshals itself (MarshalJSON or MarshalText), so vurb cannot redact its fields; "+
			"leave them out in that method and drop the tags, or drop the method", t))
	}
	if msg := s.sealedRefusal(t, where); msg != "" {
		panic(msg)
	}
}

// own reports whether t needs a shape for itself.
func (s *shaper) own(t reflect.Type) bool {
	switch {
	case s.byType[t] != nil || t.Kind() == reflect.Interface:
		return true
	case marshalsItself(t):
		return s.reachOf(t).iface // checked before its method runs
	}
	return t.Kind() == reflect.Struct && hasRedactTag(t)
}

// hasRedactTag reports whether a field of struct type t, its own or
// promoted, has a redact tag.
func hasRedactTag(t reflect.Type) bool {
	return slices.ContainsFunc(schema.JSONFields(t), func(f schema.JSONField) bool {
		_, ok := f.Field.Tag.Lookup("redact")
		return ok
	})
}

// child is a type t's JSON is made of, with where it is in t: a field's
// name, "[]" or "{}" (none behind a pointer).
type child struct {
	typ reflect.Type
	seg []string
}

// children are the types t's JSON is made of, as far as vurb writes it:
// none for a type that marshals itself (refuse looks beneath it) or for
// an interface.
func (s *shaper) children(t reflect.Type) []child {
	if marshalsItself(t) {
		return nil
	}
	switch t.Kind() {
	case reflect.Pointer:
		return []child{{typ: t.Elem()}}
	case reflect.Slice, reflect.Array:
		return []child{{t.Elem(), []string{"[]"}}}
	case reflect.Map:
		return []child{{t.Elem(), []string{"{}"}}}
	case reflect.Struct:
		var out []child
		for _, f := range schema.JSONFields(t) {
			out = append(out, child{f.Field.Type, []string{f.Name}})
		}
		return out
	}
	return nil
}

// fill builds the shape of a type that needs one.
func (s *shaper) fill(sh *shape) {
	t := sh.typ
	sh.pres = s.byType[t]
	if marshalsItself(t) { // refuse has let it through: nothing beneath it is redacted
		sh.kind, sh.guard = shapeMarshaled, s.reachOf(t).iface
		return
	}
	switch t.Kind() {
	case reflect.Struct:
		sh.kind = shapeStruct
		sh.fields = s.fieldsOf(t, sh.pres)
	case reflect.Pointer:
		sh.kind, sh.elem = shapePointer, s.memo[t.Elem()]
	case reflect.Slice, reflect.Array:
		sh.kind, sh.elem = shapeSlice, s.memo[t.Elem()]
		if t.Kind() == reflect.Array {
			sh.kind = shapeArray
		}
		el := t.Elem()
		if el.Kind() == reflect.Pointer {
			el = el.Elem()
		}
		if p := s.byType[el]; p != nil && p.limit > 0 {
			sh.limit = p
		}
	case reflect.Map:
		sh.kind, sh.elem, sh.key = shapeMap, s.memo[t.Elem()], mapKeyName(t.Key())
	case reflect.Interface:
		sh.kind = shapeInterface
	}
}

// fieldsOf compiles the properties of struct type t, with the redactions
// of its presenter p (may be nil) and of its tags.
func (s *shaper) fieldsOf(t reflect.Type, p *Def) []fieldShape {
	fields := schema.JSONFields(t)
	byName := map[string]bool{}
	for _, f := range fields {
		byName[f.Name] = true
	}
	if p != nil {
		for _, name := range p.order {
			if !byName[name] {
				panic(fmt.Sprintf("vurb: presenter of %s redacts %q, which is not a JSON field of %s; its fields are %s",
					t, name, t, strings.Join(jsonNames(fields), ", ")))
			}
		}
	}
	out := make([]fieldShape, len(fields))
	for i, f := range fields {
		key, _ := json.Marshal(f.Name)
		fs := fieldShape{name: f.Name, key: append(key, ':'), index: f.Index, omitEmpty: f.OmitEmpty, omitZero: f.OmitZero,
			quoted: f.Quoted && quotable(f.Field.Type), elem: s.memo[f.Field.Type], scalar: scalarKind(f.Field.Type)}
		if fs.omitZero {
			fs.zero = zeroTest(f.Field.Type)
		}
		marker := DefaultMarker
		if p != nil {
			marker = p.marker
		}
		if omit, ok := p.redaction(f.Name); ok {
			fs.redacted, fs.omitted = true, omit
		} else if tag, ok := f.Field.Tag.Lookup("redact"); ok {
			switch tag {
			case "true":
				fs.redacted = true
			case "omit":
				fs.redacted, fs.omitted = true, true
			default:
				panic(fmt.Sprintf("vurb: field %s (json %q) of %s: redact:%q: write redact:\"true\" to replace its value with %q, "+
					"or redact:\"omit\" to leave it out", f.Field.Name, f.Name, t, tag, marker))
			}
		}
		if fs.redacted {
			fs.marker, _ = json.Marshal(marker)
			fs.elem = nil // never written
		}
		out[i] = fs
	}
	return out
}

// redaction is how p redacts field name; ok is false when it does not.
func (p *Def) redaction(name string) (omit, ok bool) {
	if p == nil {
		return false, false
	}
	omit, ok = p.fields[name]
	return omit, ok
}

func jsonNames(fields []schema.JSONField) []string {
	names := make([]string, len(fields))
	for i, f := range fields {
		names[i] = f.Name
	}
	return names
}

// quotable reports whether encoding/json's ",string" applies to a field
// of type t: a boolean, number or string, or an unnamed pointer to one.
func quotable(t reflect.Type) bool {
	if t.Name() == "" && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.String:
		return true
	}
	return false
}

type isZeroer interface{ IsZero() bool }

var typeIsZeroer = reflect.TypeFor[isZeroer]()

// zeroTest is encoding/json's omitzero test for values of t: its IsZero
// method when it has one, else the zero value.
func zeroTest(t reflect.Type) func(reflect.Value) bool {
	switch {
	case t.Kind() == reflect.Interface && t.Implements(typeIsZeroer):
		return func(v reflect.Value) bool {
			return v.IsNil() || (v.Elem().Kind() == reflect.Pointer && v.Elem().IsNil()) || v.Interface().(isZeroer).IsZero()
		}
	case t.Kind() == reflect.Pointer && t.Implements(typeIsZeroer):
		return func(v reflect.Value) bool { return v.IsNil() || v.Interface().(isZeroer).IsZero() }
	case t.Implements(typeIsZeroer):
		return func(v reflect.Value) bool { return v.Interface().(isZeroer).IsZero() }
	case reflect.PointerTo(t).Implements(typeIsZeroer):
		return func(v reflect.Value) bool {
			if !v.CanAddr() {
				c := reflect.New(v.Type()).Elem()
				c.Set(v)
				v = c
			}
			return v.Addr().Interface().(isZeroer).IsZero()
		}
	}
	return reflect.Value.IsZero
}
