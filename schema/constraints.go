package schema

import (
	"encoding/json"
	"fmt"
	"strings"
)

// The schema must never promise what the server does not check. swaggest
// reads constraint keywords from tags of their own (minimum:"1",
// pattern:"..."), which the validator knows nothing of; vurb refuses them
// and names the validate rule that both shows in the schema and is
// enforced. The one exception is enum on strings and integers, which the
// pre-scan enforces itself (an integer has one canonical JSON spelling, so
// comparing the literal is exact).
var constraintTags = map[string]string{
	"minimum":          `validate:"gte=N" (or min=N)`,
	"maximum":          `validate:"lte=N" (or max=N)`,
	"exclusiveMinimum": `validate:"gt=N"`,
	"exclusiveMaximum": `validate:"lt=N"`,
	"minLength":        `validate:"min=N"`,
	"maxLength":        `validate:"max=N"`,
	"minItems":         `validate:"min=N"`,
	"maxItems":         `validate:"max=N"`,
	"uniqueItems":      `validate:"unique"`,
	"multipleOf":       "a check in the handler",
	"pattern":          "a check in the handler (validator has no pattern rule)",
	"format":           `validate:"email", "url", "uuid", "datetime=…" or "ip"`,
	"const":            `validate:"eq=…"`,
	"minProperties":    `validate:"min=N"`,
	"maxProperties":    `validate:"max=N"`,
}

// checkConstraintTags refuses the tags above on f, and gives a string or
// integer field's enum values to its shape for the pre-scan to enforce.
func checkConstraintTags(f *fieldInfo, sh *shape) {
	for tag, instead := range constraintTags {
		if _, ok := f.sf.Tag.Lookup(tag); ok {
			defPanic(f, "the %s tag would show in the schema but is not enforced; use %s instead", tag, instead)
		}
	}
	values, ok := f.sf.Tag.Lookup("enum")
	if !ok {
		return
	}
	if sh.kind != kindString && sh.kind != kindInt && sh.kind != kindUint {
		defPanic(f, `the enum tag is enforced on string and integer fields only; use validate:"oneof=…" instead`)
	}
	sh.enum = splitEnum(values)
	for _, v := range sh.enum {
		if v != strings.TrimSpace(v) {
			defPanic(f, `enum value %q has surrounding spaces, which the schema would keep; write enum:"a,b"`, v)
		}
	}
	sh.enumList = truncate(strings.Join(sh.enum, ", "), 200)
}

// enumIssue is the message for a value outside sh.enum, worded by msgs, or
// "" when the value is allowed. raw is the string's content as sent (between
// the quotes) or an integer's literal; esc says whether it holds escapes
// that must be decoded first.
func (sh *shape) enumIssue(raw []byte, esc bool, msgs *Messages) string {
	if esc {
		var s string
		if json.Unmarshal(append(append([]byte{'"'}, raw...), '"'), &s) == nil {
			raw = []byte(s)
		}
	}
	for _, v := range sh.enum {
		if string(raw) == v {
			return ""
		}
	}
	return fmt.Sprintf(msgs.OneOf, sh.enumList)
}

// splitEnum reads an enum tag as swaggest does: values separated by commas.
func splitEnum(values string) []string { return strings.Split(values, ",") }
