package presenter

import (
	"fmt"
	"reflect"
	"slices"

	"github.com/vurb-go/vurb/schema"
)

// A type that marshals itself (MarshalJSON or MarshalText) seals what it
// holds: encoding/json hands the whole value to its method, and vurb
// never sees the fields that method writes. So a redaction beneath such a
// type (a redact tag, or a field its presenter redacts, on any type its
// fields hold, however deep) is refused at Build rather than skipped, and
// a value held behind an interface beneath it, whose type only the call
// reveals, is checked before the method runs: the call fails rather than
// send it. Types are walked as encoding/json would walk them without the
// method (their exported JSON fields), since that is what a method
// written as json.Marshal(plain(v)) writes.

// reach is what values of a type can hold, however they are written.
type reach struct {
	// path is where, below the type, the first redacted field found is
	// ("items[].card_number"); "" when there is none. by says what
	// redacts it.
	path, by string
	// iface is whether an interface type is among what it holds, whose
	// values may carry redactions only the call reveals.
	iface bool
	// fields are the indexes of a struct's JSON fields that can hold an
	// interface, for checkHeld.
	fields [][]int
}

// reachOf is the reach of t, computed once per type and kept.
func (s *shaper) reachOf(t reflect.Type) *reach {
	if r, ok := s.reached.Load(t); ok {
		return r.(*reach)
	}
	r := &reach{}
	seen := map[reflect.Type]bool{}
	var walk func(t reflect.Type, path []string)
	walk = func(t reflect.Type, path []string) {
		if seen[t] {
			return
		}
		seen[t] = true
		switch t.Kind() {
		case reflect.Interface:
			r.iface = true
		case reflect.Pointer:
			walk(t.Elem(), path)
		case reflect.Slice, reflect.Array:
			walk(t.Elem(), append(path, "[]"))
		case reflect.Map:
			walk(t.Elem(), append(path, "{}"))
		case reflect.Struct:
			p := s.byType[t]
			for _, f := range schema.JSONFields(t) {
				at := append(slices.Clone(path), f.Name)
				if r.path == "" {
					if _, ok := p.redaction(f.Name); ok {
						r.path, r.by = pathString(at), "by the presenter of "+t.String()
					} else if _, ok := f.Field.Tag.Lookup("redact"); ok {
						r.path, r.by = pathString(at), "by its redact tag in "+t.String()
					}
				}
				walk(f.Field.Type, at)
			}
		}
	}
	walk(t, nil)
	if t.Kind() == reflect.Struct && r.iface {
		for _, f := range schema.JSONFields(t) {
			if s.reachOf(f.Field.Type).iface {
				r.fields = append(r.fields, f.Index)
			}
		}
	}
	v, _ := s.reached.LoadOrStore(t, r)
	return v.(*reach)
}

// sealedRefusal is why t, which marshals itself, cannot be in a result,
// or "" when it can: nothing beneath it is redacted. where says where t
// is ("" for the result itself).
func (s *shaper) sealedRefusal(t reflect.Type, where string) string {
	r := s.reachOf(t)
	if r.path == "" {
		return ""
	}
	at := ""
	if where != "" {
		at = " (at " + where + ")"
	}
	t = named(t)
	return fmt.Sprintf("vurb: %s%s marshals itself (MarshalJSON or MarshalText), so vurb cannot redact what it holds, "+
		"and its %s is redacted %s; drop the method so that vurb writes %s field by field, "+
		"or redact before marshalling: have it hold a type without redactions, the secret already left out",
		t, at, r.path, r.by, t)
}

// named is t without its pointers: the type whose method runs.
func named(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

// maxHeldDepth bounds checkHeld's walk, as encoding/json bounds its own
// (it stops a cyclic value at depth 1000): deeper is refused.
const maxHeldDepth = 1000

// checkHeld returns an error when v holds, behind an interface, a value
// whose type carries a redaction (at it or beneath it): a value vurb
// would redact if it wrote it, and must not hand to a method that writes
// it whole. It walks only what can hold an interface.
func (s *shaper) checkHeld(v reflect.Value) error {
	if t := s.held(v, 0); t != nil {
		return fmt.Errorf("vurb: %s marshals itself (MarshalJSON or MarshalText) and holds a %s, whose %s is redacted %s; "+
			"vurb cannot redact what that method writes, so the result is not sent",
			named(v.Type()), t, s.reachOf(t).path, s.reachOf(t).by)
	}
	return nil
}

// held is the type of the first value behind an interface in v that
// carries a redaction, nil when there is none.
func (s *shaper) held(v reflect.Value, depth int) reflect.Type {
	if depth > maxHeldDepth {
		return v.Type()
	}
	r := s.reachOf(v.Type())
	if !r.iface {
		return nil
	}
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer:
		if v.IsNil() {
			return nil
		}
		e := v.Elem()
		if v.Kind() == reflect.Interface && s.reachOf(e.Type()).path != "" {
			return e.Type()
		}
		return s.held(e, depth+1)
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			if t := s.held(v.Index(i), depth+1); t != nil {
				return t
			}
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			if t := s.held(it.Value(), depth+1); t != nil {
				return t
			}
		}
	case reflect.Struct:
		for _, index := range r.fields {
			if f, err := v.FieldByIndexErr(index); err == nil {
				if t := s.held(f, depth+1); t != nil {
					return t
				}
			}
		}
	}
	return nil
}
