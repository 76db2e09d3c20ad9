package schema

import (
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/go-playground/validator/v10"
)

// How the validator's failures become Issues a model can act on: a JSON
// path and a sentence from the call's Messages.

// validationIssues appends one Issue per validator failure in err, with the
// JSON path and a sentence for the model, worded by msgs and then by the
// messages of v's own rules. covered lists the paths the pre-scan already
// explained; validator echoes at or below them are dropped.
// conds holds the words of the Codec's conditional rules, so that a refusal
// names the field that triggered it.
func (v *Validator) validationIssues(err error, root reflect.Type, covered []string, out []Issue, msgs *Messages,
	conds map[condKey]string) []Issue {
	var ves validator.ValidationErrors
	if !errors.As(err, &ves) {
		return append(out, Issue{Message: fmt.Sprintf(msgs.Undecodable, truncate(err.Error(), 200))})
	}
	more, limit := 0, msgs.maxIssues()
	for _, fe := range ves {
		if len(out) >= limit {
			more++
			continue
		}
		path := namespacePath(fe.Namespace(), root)
		if isCovered(path, covered) {
			continue
		}
		msg := ""
		if spec, ok := condSpecs[fe.Tag()]; ok {
			if phrase, ok := conds[condKey{goField: fe.StructField(), jsonField: fe.Field(), tag: fe.Tag(), param: fe.Param()}]; ok {
				msg = fmt.Sprintf(msgs.ExcludedWhen, phrase)
				if spec.need {
					msg = fmt.Sprintf(msgs.RequiredWhen, phrase)
				}
			}
		}
		if msg == "" {
			msg = ruleMessage(fe.Tag(), fe.Param(), fe.Kind(), msgs, v.messages)
		}
		out = append(out, Issue{Path: path, Message: msg})
	}
	if more > 0 {
		out = append(out, Issue{Message: fmt.Sprintf(msgs.MoreIssues, more)})
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

// ruleMessage words one failed rule for a model: the kind-dependent texts
// of msgs for the rules that have them, then msgs.Rules, then custom (the
// messages a Validator's RegisterRule recorded), then msgs.Rule.
func ruleMessage(tag, param string, kind reflect.Kind, msgs *Messages, custom map[string]string) string {
	if strings.Contains(tag, "|") {
		var parts []string
		for _, alt := range strings.Split(tag, "|") {
			t, p, _ := strings.Cut(alt, "=")
			parts = append(parts, ruleMessage(t, p, kind, msgs, custom))
		}
		return strings.Join(parts, msgs.Or)
	}
	measure := measureOf(kind)
	switch tag {
	case "required":
		// A missing required field is reported by the pre-scan; what reaches
		// the validator was sent, but empty.
		return msgs.NotEmpty
	case "min", "gte":
		return fmt.Sprintf(pick(measure, msgs.MinNumber, msgs.MinString, msgs.MinItems), param)
	case "max", "lte":
		return fmt.Sprintf(pick(measure, msgs.MaxNumber, msgs.MaxString, msgs.MaxItems), param)
	case "gt":
		return fmt.Sprintf(pick(measure, msgs.GtNumber, msgs.GtString, msgs.GtItems), param)
	case "lt":
		return fmt.Sprintf(pick(measure, msgs.LtNumber, msgs.LtString, msgs.LtItems), param)
	case "len":
		return fmt.Sprintf(pick(measure, msgs.EqNumber, msgs.LenString, msgs.LenItems), param)
	case "eq":
		if measure == measureLength {
			return fmt.Sprintf(msgs.EqString, param)
		}
		return fmt.Sprintf(msgs.EqNumber, param)
	case "ne":
		return fmt.Sprintf(msgs.Ne, param)
	case "oneof":
		return fmt.Sprintf(msgs.OneOf, strings.Join(oneOfValues(param), ", "))
	}
	m, ok := msgs.Rules[tag]
	if !ok {
		m, ok = custom[tag]
		ok = ok && m != "" // registered without a text: the generic one
	}
	switch {
	case ok:
		if strings.Contains(m, "%") {
			return fmt.Sprintf(m, param)
		}
		return m
	case strings.HasPrefix(tag, "required_"):
		return msgs.Required
	case strings.HasPrefix(tag, "excluded_"):
		return msgs.Excluded
	case param != "":
		return fmt.Sprintf(msgs.Rule, tag+"="+param)
	}
	return fmt.Sprintf(msgs.Rule, tag)
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
