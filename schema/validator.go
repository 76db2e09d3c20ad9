package schema

import (
	"fmt"
	"reflect"
	"strings"
	"sync"

	"github.com/go-playground/validator/v10"
	"github.com/swaggest/jsonschema-go"
)

// Validator is a go-playground validator configured for schema, together
// with the Codecs built for it. Which rules exist is a property of the
// validator, and which fields are required follows from the rules, so a
// Codec belongs to one Validator: two Validators in one process, with
// different custom rules, build independent Codecs of the same type, each
// once. A Validator is safe for concurrent use.
//
// A Validator also owns everything building a schema remembers: the
// definition names of the types it reflected, their JSON properties, and
// the output schemas it built. Two Validators share nothing, so the apps
// of one process, each with its own, never wait for or race with each
// other, and a schema's definition names depend only on what its own
// Validator built, never on what else the process reflected.
type Validator struct {
	validate *validator.Validate
	foreign  bool // validate was the caller's: its rules may not be the built-in ones

	// mu guards every build of v: the fields from used to reflector, the
	// go-playground validator until used is set, and every store into
	// codecs and outputs. messages is frozen once used is set, at the first
	// CodecFor, so a call reads it without locking.
	mu          sync.Mutex
	used        bool
	messages    map[string]string      // RegisterRule's texts, by rule name ("" for none)
	ruleSchemas map[string]*ruleSchema // what RegisterRule's options add to the schema, by rule name
	infos       map[reflect.Type]*structInfo
	walked      map[reflect.Type]walkedStruct // the JSON properties of each struct type, which need no rules
	names       defNames
	reflector   jsonschema.Reflector // not safe for concurrent use: only under mu

	codecs  sync.Map // reflect.Type -> *Codec
	outputs sync.Map // reflect.Type -> json.RawMessage
}

// defaultValidator is the Validator of the package-level CodecFor, For and
// OutputSchema, made at their first use. It is never reconfigured except
// by RegisterRule, which only takes effect before its first Codec is built.
var defaultValidator = sync.OnceValue(func() *Validator { return NewValidator(nil) })

// NewValidator returns a Validator that checks rules with v, or with a
// fresh validator.New() when v is nil.
//
// A non-nil v is modified: schema installs its tag-name function (JSON
// names, embedded structs flattened, so that an error's namespace is the
// JSON path the model sent) and validator.WithTagNameFuncBlankOmit,
// replacing any tag-name function v had. Pass a v that has validated
// nothing yet, since validator caches each type's field names, and that
// reads `validate` tags (NewValidator panics otherwise). What was
// registered on v (a struct-level validation, a custom type function, a
// built-in rule name given a new meaning) is honoured: its Codecs decode
// with encoding/json and validate with v. With a nil v, rules can only be
// added through RegisterRule, which refuses built-in names.
func NewValidator(v *validator.Validate) *Validator {
	foreign := v != nil
	if !foreign {
		v = validator.New()
	}
	validator.WithTagNameFuncBlankOmit()(v)
	v.RegisterTagNameFunc(jsonFieldName)
	if foreign && v.Struct(tagProbe{}) == nil {
		panic("schema: NewValidator: the validator does not read `validate` tags (was SetTagName called?); " +
			"schema reads its rules from them")
	}
	return &Validator{
		validate:    v,
		foreign:     foreign,
		messages:    map[string]string{},
		ruleSchemas: map[string]*ruleSchema{},
		infos:       map[reflect.Type]*structInfo{},
		walked:      map[reflect.Type]walkedStruct{},
		names:       defNames{byType: map[reflect.Type]string{}, types: map[string]reflect.Type{}},
	}
}

// tagProbe fails validation exactly when the validator reads `validate` tags.
type tagProbe struct {
	X string `validate:"required"`
}

// jsonFieldName is the tag-name function every Validator installs: field
// names are JSON names, and embedded structs add no path segment, so a
// validator namespace is the JSON path the model sent.
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

// restrictedRuleChars are the characters validator refuses in a rule name
// (it panics on them); RegisterRule returns an error instead.
const restrictedRuleChars = ".[],|=+()`~!@#$%^&*\\\"/?<>{}"

// RegisterRule adds the custom rule tag, checked by fn, to v, and records
// message as the text a model reads when the rule fails (a "%s" in it
// receives the rule's parameter; "" keeps the generic Messages.Rule text).
// An application's Messages.Rules entry for tag, when it has one, wins over
// message, so the texts of custom rules can be reworded like any other.
//
// opts say what the rule adds to the schema of a field it constrains
// (RulePattern, RuleFormat, RuleEnum, RuleKeywords) and what its
// description says (RuleNote). A rule with no keywords is still stated: its
// note, or else its message, is appended to the field's description, so no
// rule is enforced without the model being told.
//
// It returns an error, and changes nothing, when tag is empty or holds a
// character validator refuses in a name, when tag is a rule validator
// already has (min, email, required, iscolor...: the schema relies on
// their built-in meaning, so they cannot be redefined), when
// tag starts with required_, excluded_ or skip_ or contains "field"
// (schema reads such names as conditional rules), when fn is nil, when tag
// was registered on v before, and once v has built its first Codec:
// validator caches the rules it parses, so rules must all be registered
// first.
func (v *Validator) RegisterRule(tag string, fn validator.Func, message string, opts ...RuleOption) error {
	switch {
	case tag == "" || strings.ContainsAny(tag, restrictedRuleChars):
		return fmt.Errorf("schema: RegisterRule(%q): a rule name must be non-empty and hold none of %s", tag, restrictedRuleChars)
	case fn == nil:
		return fmt.Errorf("schema: RegisterRule(%q): nil validation function", tag)
	case conditionalRule(tag):
		return fmt.Errorf("schema: RegisterRule(%q): names starting with required_, excluded_ or skip_, or containing "+
			"\"field\", are read as conditional rules; choose another name", tag)
	case builtinRule(tag):
		return fmt.Errorf("schema: RegisterRule(%q): %q is a built-in validator rule and cannot be redefined; choose another name", tag, tag)
	}
	rs := &ruleSchema{}
	for _, o := range opts {
		if o.apply == nil {
			continue
		}
		if err := o.apply(rs); err != nil {
			return fmt.Errorf("schema: RegisterRule(%q): %w", tag, err)
		}
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.used {
		return fmt.Errorf("schema: RegisterRule(%q): the validator has built a Codec already; register every rule before the first CodecFor", tag)
	}
	if _, dup := v.messages[tag]; dup {
		return fmt.Errorf("schema: RegisterRule(%q): the rule is registered already", tag)
	}
	if err := v.validate.RegisterValidation(tag, fn); err != nil {
		return fmt.Errorf("schema: RegisterRule(%q): %w", tag, err)
	}
	v.messages[tag] = message
	if !rs.empty() {
		v.ruleSchemas[tag] = rs
	}
	return nil
}

// builtinRule reports whether validator defines tag itself, as a rule, an
// alias or a keyword (dive, omitempty...): only an unknown name makes it
// panic with "Undefined validation function" when it parses the tag. It
// asks a validator nobody configures, made for the question: a shared one
// would keep, in its tag cache, every name any app of the process asked
// about, and registering a rule is rare enough to pay for a fresh one.
func builtinRule(tag string) (builtin bool) {
	defer func() {
		if r := recover(); r != nil {
			msg, _ := r.(string)
			builtin = !strings.HasPrefix(msg, "Undefined validation function")
		}
	}()
	_ = validator.New().Var("", tag)
	return true
}
