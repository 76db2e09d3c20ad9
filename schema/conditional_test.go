package schema

import (
	"errors"
	"testing"

	"github.com/matryer/is"
)

type (
	condPay struct {
		Method string  `json:"method" validate:"required,oneof=card bank"`
		Card   *string `json:"card,omitempty" validate:"required_if=Method card,omitempty,len=16"`
		IBAN   string  `json:"iban,omitempty" validate:"excluded_if=Method card"`
		Note   *string `json:"note,omitempty" validate:"required_with=Ref"`
		Ref    *string `json:"ref,omitempty"`
		Gift   *bool   `json:"gift,omitempty" validate:"required_without=Ref"`
		Count  int     `json:"count,omitempty" validate:"required_unless=Method bank,omitempty,max=9"`
	}
	condBadName struct {
		A *string `json:"a,omitempty" validate:"required_with=Nope"`
	}
	condExcludedDefault struct {
		A *string `json:"a,omitempty"`
		B string  `json:"b,omitempty" default:"x" validate:"excluded_with=A"`
	}
)

func TestConditionalSchema(t *testing.T) {
	is := is.New(t)
	is.Equal(string(For[condPay]().Schema()), `{"type":"object","properties":{`+
		`"method":{"type":"string","enum":["card","bank"]},`+
		`"card":{"type":"string","description":"Required when method is \"card\".","minLength":16,"maxLength":16},`+
		`"iban":{"type":"string","description":"Must be left out when method is \"card\"."},`+
		`"note":{"type":"string","description":"Required when ref is set."},`+
		`"ref":{"type":"string"},`+
		`"gift":{"type":"boolean","description":"Required when ref is not set."},`+
		`"count":{"type":"integer","description":"Required unless method is \"bank\".","maximum":9}},`+
		`"required":["method"],"additionalProperties":false,"dependentRequired":{"ref":["note"]},"allOf":[`+
		`{"if":{"properties":{"method":{"const":"card"}},"required":["method"]},"then":{"required":["card"]}},`+
		`{"if":{"properties":{"method":{"const":"card"}},"required":["method"]},"then":{"properties":{"iban":{"const":""}}}},`+
		`{"if":{"not":{"required":["ref"]}},"then":{"required":["gift"]}},`+
		`{"if":{"properties":{"method":{"const":"bank"}},"required":["method"]},"else":{"properties":{"count":{"not":{"const":0}}},"required":["count"]}}]}`)
}

// TestConditionalMessages: a refusal names the field that triggered it,
// in the words of the description.
func TestConditionalMessages(t *testing.T) {
	c := For[condPay]()
	for _, tc := range []struct{ in, want string }{
		{`{"method":"card","gift":true,"count":1}`, `card: is required when method is "card"`},
		{`{"method":"card","card":"1234123412341234","iban":"FR76","gift":true,"count":1}`, `iban: must be left out when method is "card"`},
		{`{"method":"bank","ref":"r"}`, `note: is required when ref is set`},
		{`{"method":"bank","note":"n"}`, `gift: is required when ref is not set`},
		{`{"method":"card","card":"1234123412341234","gift":true}`, `count: is required unless method is "bank"`},
		{`{"method":"bank","gift":false}`, ``},
	} {
		var v condPay
		err := c.Decode([]byte(tc.in), &v, DecodeOptions{})
		if tc.want == "" {
			if err != nil {
				t.Errorf("%s: %v", tc.in, err)
			}
			continue
		}
		var e *Error
		if !errors.As(err, &e) || err.Error() != tc.want {
			t.Errorf("%s: got %v, want %s", tc.in, err, tc.want)
		}
	}
	own := DefaultMessages()
	own.RequiredWhen = "est obligatoire %s"
	var v condPay
	is.New(t).Equal(c.Decode([]byte(`{"method":"card","gift":true,"count":1}`), &v, DecodeOptions{Messages: own}).Error(),
		`card: est obligatoire when method is "card"`)
}

func TestConditionalMistakes(t *testing.T) {
	is := is.New(t)
	is.Equal(panicText(func() { For[condBadName]() }),
		`schema: field A (json "a") of condBadName: rule "required_with" names field "Nope", which condBadName does not have (name a Go field of the same struct)`)
	is.Equal(panicText(func() { For[condExcludedDefault]() }),
		`schema: field B (json "b") of condExcludedDefault: rule "excluded_with" can require the field to be left out, but its default fills it in; remove one of them`)
}
