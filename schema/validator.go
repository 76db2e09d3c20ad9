package schema

import (
	"encoding/json"

	"github.com/go-playground/validator/v10"
	"github.com/vurb-go/vurb/internal/schema"
)

// Validator is a go-playground validator configured for this package,
// together with the Codecs built for it. Which rules exist is a property of
// the Validator, and which fields are required follows from the rules, so
// a Codec belongs to one Validator: two Validators in one process build
// independent Codecs of the same type, each once. It is safe for
// concurrent use. Its methods:
//
//   - CodecFor(t) is CodecFor for this Validator's rules.
//   - RegisterRule(tag, fn, message, opts...) adds the custom rule tag,
//     checked by fn, with message as the text a model reads when it fails
//     (a "%s" receives the rule's parameter; "" keeps the generic
//     Messages.Rule text; a Messages.Rules entry for tag wins over it).
//     opts say what the rule adds to the schema of the fields it
//     constrains (RulePattern, RuleFormat, RuleEnum, RuleKeywords) and to
//     their description (RuleNote); a rule with no keywords is stated in
//     the description by its note, or else by its message, so no rule is
//     enforced without the model being told. It returns an
//     error and changes nothing when tag is a rule validator already has
//     (min, email, required...: their meaning is built into the schema),
//     when tag is empty, holds a character validator
//     refuses, starts with required_, excluded_ or skip_ or contains
//     "field" (read as conditional rules), when fn is nil, when tag was
//     registered before, and once the Validator has built a Codec:
//     register every rule first.
type Validator = schema.Validator

// NewValidator returns a Validator that checks rules with v, or with a
// fresh validator.New() when v is nil.
//
// A non-nil v is modified: this package installs its tag-name function
// (JSON names, embedded structs flattened, so that an error's path is the
// JSON path the model sent) and validator.WithTagNameFuncBlankOmit,
// replacing any tag-name function v had. Pass a v that has validated
// nothing yet, since validator caches each type's field names, and that
// reads `validate` tags (NewValidator panics otherwise). What was
// registered on v (a struct-level validation, a custom type function, a
// built-in rule name given a new meaning) is honoured: its Codecs decode
// with encoding/json and validate with v. With a nil v, rules can only be
// added through RegisterRule, which refuses built-in names.
func NewValidator(v *validator.Validate) *Validator { return schema.NewValidator(v) }

// RuleOption says what a custom rule adds to the schema of the fields it
// constrains; pass it to Validator.RegisterRule. The zero RuleOption adds
// nothing.
type RuleOption = schema.RuleOption

// RulePattern states the rule as a "pattern" keyword: an ECMA-262 regular
// expression that accepts exactly the strings the rule accepts.
func RulePattern(pattern string) RuleOption { return schema.RulePattern(pattern) }

// RuleFormat states the rule as a "format" keyword ("email", "date",
// "ipv4"...), which must accept exactly what the rule accepts.
func RuleFormat(format string) RuleOption { return schema.RuleFormat(format) }

// RuleEnum states the rule as an "enum" keyword: the rule accepts exactly
// these values (strings, numbers or booleans).
func RuleEnum(values ...any) RuleOption { return schema.RuleEnum(values...) }

// RuleKeywords states the rule as the keywords of doc, a JSON object merged
// into the field's schema ({"minLength":3,"pattern":"^[A-Z]"}); a keyword
// the field's schema already has is added through allOf, so both hold.
func RuleKeywords(doc json.RawMessage) RuleOption { return schema.RuleKeywords(doc) }

// RuleNote is the sentence the rule adds to a field's description (a "%s"
// receives the rule's parameter). Without keywords, a rule is described by
// its note, or else by its message; with keywords, only a note is added.
func RuleNote(note string) RuleOption { return schema.RuleNote(note) }
