package schema

import (
	"encoding/json"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/go-playground/validator/v10"
	"github.com/matryer/is"
)

type ruleOrder struct {
	SKU     string `json:"sku" validate:"required,sku"`
	Country string `json:"country,omitempty" validate:"omitempty,country"`
	Size    string `json:"size,omitempty" validate:"omitempty,size"`
	Color   string `json:"color,omitempty" validate:"omitempty,color3"`
	Even    int    `json:"even,omitempty" validate:"omitempty,even"`
	Plain   string `json:"plain,omitempty" validate:"omitempty,printascii,lowercase"`
}

// TestRuleOptions: each custom rule says what it adds to the schema; one
// with no keywords is stated in the description, by its note or message.
func TestRuleOptions(t *testing.T) {
	is := is.New(t)
	v := NewValidator(nil)
	sku := regexp.MustCompile(`^[A-Z]{3}-\d{4}$`)
	is.NoErr(v.RegisterRule("sku", func(fl validator.FieldLevel) bool { return sku.MatchString(fl.Field().String()) },
		"must be an SKU like ABC-1234", RulePattern(`^[A-Z]{3}-\d{4}$`)))
	is.NoErr(v.RegisterRule("country", func(fl validator.FieldLevel) bool { return len(fl.Field().String()) == 2 },
		"must be a country code", RuleKeywords(json.RawMessage(`{"minLength":2,"maxLength":2}`)), RuleNote("An ISO 3166 code.")))
	is.NoErr(v.RegisterRule("size", func(fl validator.FieldLevel) bool { return strings.Contains("S M L", fl.Field().String()) },
		"must be S, M or L", RuleEnum("S", "M", "L")))
	is.NoErr(v.RegisterRule("color3", func(fl validator.FieldLevel) bool { return len(fl.Field().String()) == 3 },
		"must be a three-letter color code"))
	is.NoErr(v.RegisterRule("even", func(fl validator.FieldLevel) bool { return fl.Field().Int()%2 == 0 }, ""))
	c := v.CodecFor(reflect.TypeFor[ruleOrder]())
	is.Equal(string(c.Schema()), `{"type":"object","properties":{`+
		`"sku":{"type":"string","pattern":"^[A-Z]{3}-\\d{4}$","minLength":1},`+
		`"country":{"type":"string","description":"An ISO 3166 code.","minLength":2,"maxLength":2},`+
		`"size":{"type":"string","enum":["S","M","L"]},`+
		`"color":{"type":"string","description":"Must be a three-letter color code."},`+
		`"even":{"type":"integer","description":"Must satisfy the \"even\" rule."},`+
		`"plain":{"type":"string","description":"Must contain only printable ASCII characters. Must be lowercase."}},`+
		`"required":["sku"],"additionalProperties":false}`)
	var o ruleOrder
	is.Equal(c.Decode([]byte(`{"sku":"ABC-12","color":"blue","even":3}`), &o, DecodeOptions{}).Error(),
		`sku: must be an SKU like ABC-1234; color: must be a three-letter color code; even: must satisfy the "even" rule`)

	err := v.RegisterRule("bad", func(validator.FieldLevel) bool { return true }, "", RulePattern("("))
	is.True(err != nil && strings.Contains(err.Error(), "RulePattern"))
	err = NewValidator(nil).RegisterRule("bad", func(validator.FieldLevel) bool { return true }, "", RuleKeywords(json.RawMessage(`[1]`)))
	is.True(err != nil && strings.Contains(err.Error(), "want a non-empty JSON object"))
}
