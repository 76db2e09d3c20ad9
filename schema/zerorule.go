package schema

import (
	"errors"
	"reflect"
	"strings"

	"github.com/go-playground/validator/v10"
)

// A sent zero value. validator's omitempty skips the rules after it on a
// zero value, but JSON tells an absent property from one sent as "" or 0:
// the schema states the rules (minLength 3, minimum 1) and a model that
// sends "" breaks them. So the zero is refused when it is sent and the
// rules after omitempty reject it, with the text of the first rule that
// does; an absent property is still fine, and decodes to the zero value.

// withRules attaches to field shape sh, of Go type t, what the validate
// levels say about a sent zero, at the field and after each dive. Shapes
// of composite types are shared per type, so the path down to a changed
// element is copied.
func (c *shapeCompiler) withRules(sh *shape, t reflect.Type, levels []ruleLevel) *shape {
	if len(levels) == 0 {
		return sh
	}
	if t.Kind() != reflect.Pointer && scalarShape(sh.kind) {
		if z := c.v.zeroRule(t, levels[0].rules); z != nil {
			cp := *sh
			cp.zero = z
			sh = &cp
		}
	}
	if et := deref(t); len(levels) > 1 && (sh.kind == kindArray || sh.kind == kindMap) && et.Kind() != reflect.String {
		if elem := c.withRules(sh.elem, et.Elem(), levels[1:]); elem != sh.elem {
			cp := *sh
			cp.elem = elem
			sh = &cp
		}
	}
	return sh
}

func scalarShape(k kind) bool {
	switch k {
	case kindString, kindBool, kindInt, kindUint, kindFloat:
		return true
	}
	return false
}

// zeroRule returns the first rule after omitempty in rules that rejects
// the zero value of t, or nil. Rules before omitempty, and levels without
// it, already refuse the zero value, absent or sent. Conditional and
// cross-field rules depend on other fields and are left out.
func (v *Validator) zeroRule(t reflect.Type, rules []rule) *rule {
	after := -1
	for i, r := range rules {
		if r.tag == "omitempty" {
			after = i
			break
		}
	}
	if after < 0 {
		return nil
	}
	tag := ruleTag(rules[after+1:], false)
	if tag == "" {
		return nil
	}
	fe := v.firstFailure(reflect.Zero(t).Interface(), tag)
	if fe == nil {
		return nil
	}
	return &rule{tag: fe.Tag(), param: fe.Param()}
}

// ruleTag writes rules back as a validate tag, escaping their parameters,
// without the conditional and cross-field ones; keepOmit keeps omitempty.
func ruleTag(rules []rule, keepOmit bool) string {
	var parts []string
	for _, r := range rules {
		switch {
		case r.or:
			parts = append(parts, r.tag)
		case conditionalRule(r.tag), r.tag == "omitempty" && !keepOmit:
		case r.param != "":
			p := strings.ReplaceAll(strings.ReplaceAll(r.param, ",", "0x2C"), "|", "0x7C")
			parts = append(parts, r.tag+"="+p)
		default:
			parts = append(parts, r.tag)
		}
	}
	return strings.Join(parts, ",")
}

// firstFailure validates value against tag with v and returns the first
// failed rule, or nil. A rule that cannot run on a lone value (a custom
// rule reading its parent struct) panics in validator; it counts as passed.
func (v *Validator) firstFailure(value any, tag string) (fe validator.FieldError) {
	defer func() {
		if recover() != nil {
			fe = nil
		}
	}()
	var ves validator.ValidationErrors
	if errors.As(v.validate.Var(value, tag), &ves) && len(ves) > 0 {
		return ves[0]
	}
	return nil
}

// zeroIssue reports a sent zero value that sh's rules refuse.
func (s *scanner) zeroIssue(sh *shape) {
	s.valueIssue(ruleMessage(sh.zero.tag, sh.zero.param, sh.zeroKind(), s.msgs, s.custom))
}

// zeroKind is the Go kind a zero rule's message is worded for.
func (sh *shape) zeroKind() reflect.Kind {
	switch sh.kind {
	case kindString:
		return reflect.String
	case kindBool:
		return reflect.Bool
	case kindFloat:
		return reflect.Float64
	}
	return reflect.Int
}
