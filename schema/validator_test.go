package schema

import (
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/go-playground/validator/v10"
	"github.com/matryer/is"
)

type (
	// skuInput uses a custom rule, which only some Validators know.
	skuInput struct {
		SKU string `json:"sku" validate:"sku"`
		Qty *int   `json:"qty,omitempty" validate:"omitempty,min=1"`
	}
	// prefixedInput uses a custom rule with a parameter.
	prefixedInput struct {
		Code string `json:"code" validate:"required,prefixed=ab"`
	}
)

// patternRule is a custom rule accepting the strings re matches.
func patternRule(re string) validator.Func {
	r := regexp.MustCompile(re)
	return func(fl validator.FieldLevel) bool { return r.MatchString(fl.Field().String()) }
}

// skuValidator returns a fresh Validator whose sku rule accepts what re
// matches, with message as its text.
func skuValidator(t *testing.T, re, message string) *Validator {
	t.Helper()
	v := NewValidator(nil)
	if err := v.RegisterRule("sku", patternRule(re), message); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestValidatorsAreIndependent: two Validators with different sku rules
// decode the same type differently, each with its own text, and even
// disagree on whether the field is required (one rejects "", the other
// does not); a Validator without the rule refuses the type.
func TestValidatorsAreIndependent(t *testing.T) {
	upper := skuValidator(t, `^[A-Z]{3}-[0-9]+$`, "must be a SKU like ABC-123")
	lower := skuValidator(t, `^([a-z]{3}-[0-9]+)?$`, "must be a lowercase SKU like abc-123")
	tests := []struct {
		in, upper, lower string
	}{
		{`{"sku":"ABC-1"}`, ``, `sku: must be a lowercase SKU like abc-123`},
		{`{"sku":"abc-1"}`, `sku: must be a SKU like ABC-123`, ``},
		{`{"sku":"abc-1","qty":0}`, `sku: must be a SKU like ABC-123; qty: must be at least 1`, `qty: must be at least 1`},
		{`{}`, `sku: is required`, ``},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			is := is.New(t)
			for _, c := range []struct {
				v    *Validator
				want string
			}{{upper, tt.upper}, {lower, tt.lower}} {
				var in skuInput
				is.Equal(errText(c.v.CodecFor(reflect.TypeFor[skuInput]()).Decode([]byte(tt.in), &in, DecodeOptions{})),
					errText(wantErr(c.want)))
			}
		})
	}
	is := is.New(t)
	cu, cl := upper.CodecFor(reflect.TypeFor[skuInput]()), lower.CodecFor(reflect.TypeFor[*skuInput]())
	is.True(cu != cl)                                          // one Codec per Validator
	is.True(cu == upper.CodecFor(reflect.TypeFor[skuInput]())) // built once per Validator
	is.True(cu.Fields()[0].Required)                           // upper's sku rejects "", what an absent sku decodes to
	is.True(!cl.Fields()[0].Required)                          // lower's accepts it

	defer func() {
		r := fmt.Sprint(recover())
		is.True(strings.Contains(r, "bad validate tag") && strings.Contains(r, "Undefined validation function 'sku'"))
	}()
	NewValidator(nil).CodecFor(reflect.TypeFor[skuInput]())
}

func wantErr(text string) error {
	if text == "" {
		return nil
	}
	return fmt.Errorf("%s", text)
}

func TestRegisterRuleMessages(t *testing.T) {
	is := is.New(t)
	v := NewValidator(nil)
	is.NoErr(v.RegisterRule("prefixed", func(fl validator.FieldLevel) bool {
		return strings.HasPrefix(fl.Field().String(), fl.Param())
	}, "must start with %s"))
	is.NoErr(v.RegisterRule("sku", patternRule(`^[A-Z]+$`), "")) // no text: the generic one
	c := v.CodecFor(reflect.TypeFor[prefixedInput]())
	var p prefixedInput
	is.Equal(errText(c.Decode([]byte(`{"code":"xy"}`), &p, DecodeOptions{})), `code: must start with ab`)

	// An application's Messages.Rules entry wins over the rule's own text.
	m := DefaultMessages()
	m.Rules["prefixed"] = "doit commencer par %s"
	is.Equal(errText(c.Decode([]byte(`{"code":"xy"}`), &p, DecodeOptions{Messages: m})), `code: doit commencer par ab`)

	var s skuInput
	err := v.CodecFor(reflect.TypeFor[skuInput]()).Decode([]byte(`{"sku":"a"}`), &s, DecodeOptions{})
	is.Equal(errText(err), `sku: must satisfy the "sku" rule`)
}

func TestRegisterRuleRefuses(t *testing.T) {
	ok := patternRule(`.`)
	tests := []struct {
		tag  string
		fn   validator.Func
		want string
	}{
		{"", ok, "must be non-empty"},
		{"a,b", ok, "must be non-empty and hold none of"},
		{"a=b", ok, "must be non-empty and hold none of"},
		{"sku", nil, "nil validation function"},
		{"min", ok, "built-in validator rule"},
		{"oneof", ok, "built-in validator rule"},
		{"email", ok, "built-in validator rule"},
		{"required", ok, "built-in validator rule"},
		{"omitempty", ok, "built-in validator rule"},
		{"dive", ok, "built-in validator rule"},
		{"keys", ok, "built-in validator rule"},
		{"iscolor", ok, "built-in validator rule"}, // an alias
		{"required_sku", ok, "conditional rules"},
		{"excluded_sku", ok, "conditional rules"},
		{"skufield", ok, "conditional rules"},
	}
	for _, tt := range tests {
		t.Run(tt.tag, func(t *testing.T) {
			is := is.New(t)
			err := NewValidator(nil).RegisterRule(tt.tag, tt.fn, "text")
			is.True(err != nil)
			is.True(strings.Contains(err.Error(), tt.want))
		})
	}
	t.Run("twice", func(t *testing.T) {
		is := is.New(t)
		v := NewValidator(nil)
		is.NoErr(v.RegisterRule("sku", ok, ""))
		is.True(strings.Contains(errText(v.RegisterRule("sku", ok, "")), "registered already"))
	})
	t.Run("after the first Codec", func(t *testing.T) {
		is := is.New(t)
		v := NewValidator(nil)
		v.CodecFor(reflect.TypeFor[benchInput]())
		is.True(strings.Contains(errText(v.RegisterRule("sku", ok, "")), "before the first CodecFor"))
	})
}

// TestForeignValidator: a caller's validator gets schema's naming and its
// own registrations are honoured, even a built-in name redefined.
func TestForeignValidator(t *testing.T) {
	is := is.New(t)
	raw := validator.New()
	// A built-in name given a stricter meaning, behind schema's back.
	is.NoErr(raw.RegisterValidation("max", func(validator.FieldLevel) bool { return false }))
	v := NewValidator(raw)
	c := v.CodecFor(reflect.TypeFor[benchInput]())
	var in benchInput
	err := c.Decode(benchArgs, &in, DecodeOptions{})
	is.Equal(errText(err), `limit: must be at most 100; query: must be at most 200 characters`) // raw's verdict, JSON paths
	is.NoErr(For[benchInput]().Decode(benchArgs, &in, DecodeOptions{}))

	other := validator.New()
	other.SetTagName("binding")
	defer func() {
		is.True(strings.Contains(fmt.Sprint(recover()), "does not read `validate` tags"))
	}()
	NewValidator(other)
}

func TestDefaultValidator(t *testing.T) {
	is := is.New(t)
	is.True(defaultValidator().CodecFor(reflect.TypeFor[benchInput]()) == For[benchInput]())
	is.True(CodecFor(reflect.TypeFor[*benchInput]()) == For[benchInput]())
}

// TestValidatorsConcurrent builds and uses Codecs of several Validators
// from many goroutines at once (run with -race).
func TestValidatorsConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v := NewValidator(nil)
			re, want := `^[A-Z]+$`, `sku: must be upper-case`
			if g%2 == 1 {
				re, want = `^[a-z]+$`, `sku: must be lower-case`
			}
			if err := v.RegisterRule("sku", patternRule(re), strings.TrimPrefix(want, "sku: ")); err != nil {
				t.Error(err)
				return
			}
			bad := `{"sku":"abc"}`
			if g%2 == 1 {
				bad = `{"sku":"ABC"}`
			}
			for range 50 {
				var in skuInput
				if got := errText(v.CodecFor(reflect.TypeFor[skuInput]()).Decode([]byte(bad), &in, DecodeOptions{})); got != want {
					t.Errorf("got %q, want %q", got, want)
					return
				}
				var b benchInput
				if err := For[benchInput]().Decode(benchArgs, &b, DecodeOptions{}); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func errText(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}
