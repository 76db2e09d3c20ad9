package schema_test

import (
	"fmt"
	"reflect"
	"regexp"

	"github.com/go-playground/validator/v10"
	"github.com/vurb-go/vurb/schema"
)

// Payment shows what the schema states beyond types: a default that Decode
// applies, a conditional rule, and a custom rule with its own pattern.
type Payment struct {
	Method string  `json:"method" validate:"required,oneof=card bank"`
	Card   *string `json:"card,omitempty" validate:"required_if=Method card,omitempty,len=16"`
	Count  int     `json:"count,omitempty" default:"1" validate:"omitempty,min=1,max=9"`
	SKU    string  `json:"sku,omitempty" validate:"omitempty,sku"`
}

func Example_theWholeTruth() {
	v := schema.NewValidator(nil)
	sku := regexp.MustCompile(`^[A-Z]{3}-\d{4}$`)
	_ = v.RegisterRule("sku", func(fl validator.FieldLevel) bool { return sku.MatchString(fl.Field().String()) },
		"must be an SKU like ABC-1234", schema.RulePattern(`^[A-Z]{3}-\d{4}$`))
	c := v.CodecFor(reflect.TypeFor[Payment]())
	fmt.Println(string(c.Schema()))

	var p Payment
	err := c.Decode([]byte(`{"method":"bank","count":3.0}`), &p, schema.DecodeOptions{})
	fmt.Println(p.Method, p.Count, err)
	err = c.Decode([]byte(`{"method":"bank"}`), &p, schema.DecodeOptions{})
	fmt.Println(p.Count, err) // the default
	err = c.Decode([]byte(`{"method":"card","count":2.5,"sku":null}`), &p, schema.DecodeOptions{})
	fmt.Println(err)
	// Output:
	// {"type":"object","properties":{"method":{"type":"string","enum":["card","bank"]},"card":{"type":"string","description":"Required when method is \"card\".","minLength":16,"maxLength":16},"count":{"type":"integer","default":1,"minimum":1,"maximum":9},"sku":{"type":"string","pattern":"^[A-Z]{3}-\\d{4}$"}},"required":["method"],"additionalProperties":false,"if":{"properties":{"method":{"const":"card"}},"required":["method"]},"then":{"required":["card"]}}
	// bank 3 <nil>
	// 1 <nil>
	// count: must be an integer, got 2.5; sku: must not be null: leave the property out instead; card: is required when method is "card"
}
