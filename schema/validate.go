package schema

import (
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/go-playground/validator/v10"
)

// validate is the one validator every Codec shares: validator caches its
// per-type work, so sharing it keeps that work to once per type.
// Field names are JSON names, and embedded structs add no path segment,
// so a validator namespace is the JSON path the model sent.
var validate = func() *validator.Validate {
	v := validator.New(validator.WithTagNameFuncBlankOmit())
	v.RegisterTagNameFunc(jsonFieldName)
	return v
}()

func jsonFieldName(sf reflect.StructField) string {
	name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
	if name == "" {
		if sf.Anonymous && deref(sf.Type).Kind() == reflect.Struct {
			return "" // flattened, like encoding/json does
		}
		return sf.Name
	}
	return name
}

// validationIssues appends one Issue per validator failure in err, with the
// JSON path and a sentence for the model. covered lists the paths the
// pre-scan already explained; validator echoes at or below them are dropped.
func validationIssues(err error, root reflect.Type, covered []string, out []Issue) []Issue {
	var ves validator.ValidationErrors
	if !errors.As(err, &ves) {
		return append(out, Issue{Message: fmt.Sprintf(MsgUndecodable, truncate(err.Error(), 200))})
	}
	more := 0
	for _, fe := range ves {
		if len(out) >= MaxIssues {
			more++
			continue
		}
		path := namespacePath(fe.Namespace(), root)
		if isCovered(path, covered) {
			continue
		}
		out = append(out, Issue{Path: path, Message: ruleMessage(fe.Tag(), fe.Param(), fe.Kind())})
	}
	if more > 0 {
		out = append(out, Issue{Message: fmt.Sprintf(MsgMoreIssues, more)})
	}
	return out
}

// namespacePath strips validator's leading "TypeName." from a namespace.
func namespacePath(ns string, root reflect.Type) string {
	if n := root.Name(); n != "" {
		ns = strings.TrimPrefix(ns, n)
		ns = strings.TrimPrefix(ns, ".")
	}
	return ns
}

// ruleMessage words one failed rule for a model.
func ruleMessage(tag, param string, kind reflect.Kind) string {
	if strings.Contains(tag, "|") {
		var parts []string
		for _, alt := range strings.Split(tag, "|") {
			t, p, _ := strings.Cut(alt, "=")
			parts = append(parts, ruleMessage(t, p, kind))
		}
		return strings.Join(parts, MsgOr)
	}
	measure := measureOf(kind)
	switch tag {
	case "required":
		// A missing required field is reported by the pre-scan; what reaches
		// the validator was sent, but empty.
		return MsgNotEmpty
	case "min", "gte":
		return fmt.Sprintf(pick(measure, MsgMinNumber, MsgMinString, MsgMinItems), param)
	case "max", "lte":
		return fmt.Sprintf(pick(measure, MsgMaxNumber, MsgMaxString, MsgMaxItems), param)
	case "gt":
		return fmt.Sprintf(pick(measure, MsgGtNumber, MsgGtString, MsgGtItems), param)
	case "lt":
		return fmt.Sprintf(pick(measure, MsgLtNumber, MsgLtString, MsgLtItems), param)
	case "len":
		return fmt.Sprintf(pick(measure, MsgEqNumber, MsgLenString, MsgLenItems), param)
	case "eq":
		if measure == measureLength {
			return fmt.Sprintf(MsgEqString, param)
		}
		return fmt.Sprintf(MsgEqNumber, param)
	case "ne":
		return fmt.Sprintf(MsgNe, param)
	case "oneof":
		return fmt.Sprintf(MsgOneOf, strings.Join(oneOfValues(param), ", "))
	}
	if strings.HasPrefix(tag, "required_") {
		return MsgRequired
	}
	if strings.HasPrefix(tag, "excluded_") {
		return MsgExcluded
	}
	if m, ok := RuleMessages[tag]; ok {
		if strings.Contains(m, "%") {
			return fmt.Sprintf(m, param)
		}
		return m
	}
	if param != "" {
		return fmt.Sprintf(MsgRule, tag+"="+param)
	}
	return fmt.Sprintf(MsgRule, tag)
}

type measure int

const (
	measureValue  measure = iota // numbers: the value itself
	measureLength                // strings: characters
	measureCount                 // slices, arrays, maps: items
)

func measureOf(k reflect.Kind) measure {
	switch k {
	case reflect.String:
		return measureLength
	case reflect.Slice, reflect.Array, reflect.Map:
		return measureCount
	}
	return measureValue
}

func pick(m measure, value, length, count string) string {
	switch m {
	case measureLength:
		return length
	case measureCount:
		return count
	}
	return value
}

// zeroFailure is a rule that fails when a field holds its zero value, which
// is what an absent field decodes to.
type zeroFailure struct {
	path string // JSON path inside the struct, e.g. "name" or "address.city"
	tag  string
}

// zeroFailures validates a zero t and returns, per top-level JSON name, the
// first unconditional rule that rejects it. Conditional rules (required_if,
// eqfield, ...) depend on other fields and say nothing about absence alone.
// A malformed validate tag panics here, at CodecFor time, naming the struct.
func zeroFailures(t reflect.Type) map[string]zeroFailure {
	var err error
	func() {
		defer func() {
			if r := recover(); r != nil {
				panic(fmt.Sprintf("schema: struct %s: bad validate tag: %v", typeName(t), r))
			}
		}()
		err = validate.Struct(reflect.New(t).Interface())
	}()
	out := map[string]zeroFailure{}
	var ves validator.ValidationErrors
	if !errors.As(err, &ves) {
		return out
	}
	for _, fe := range ves {
		if conditionalRule(fe.Tag()) {
			continue
		}
		path := namespacePath(fe.Namespace(), t)
		top := path
		if i := strings.IndexAny(path, ".["); i >= 0 {
			top = path[:i]
		}
		if _, seen := out[top]; !seen {
			out[top] = zeroFailure{path: path, tag: fe.Tag()}
		}
	}
	return out
}

func conditionalRule(tag string) bool {
	return strings.HasPrefix(tag, "required_") || strings.HasPrefix(tag, "excluded_") ||
		strings.Contains(tag, "field") || strings.HasPrefix(tag, "skip_")
}
