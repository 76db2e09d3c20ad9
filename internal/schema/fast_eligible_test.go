package schema

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
)

// Ineligible types: each has one thing the fast path does not mirror.
type (
	fastCustomJSON  struct{ V string }
	fastCustomText  string
	fastValuer      int
	fastEmbedded    struct{ Name string }
	FastPart        struct{ Part string } // exported: encoding/json can set it through a pointer
	fastTimeLike    time.Time             // validator.Struct refuses it: convertible to time.Time
	fastRootDecoder struct {
		Name string `json:"name"`
	}
)

func (c *fastCustomJSON) UnmarshalJSON(b []byte) error  { c.V = string(b); return nil }
func (c *fastCustomText) UnmarshalText(b []byte) error  { *c = fastCustomText(b); return nil }
func (fastValuer) ValidatorValue() any                  { return 1 }
func (r *fastRootDecoder) UnmarshalJSON(b []byte) error { r.Name = "custom"; return nil }

func TestFastEligibility(t *testing.T) {
	ineligible := map[string]*Codec{
		"custom UnmarshalJSON": For[struct {
			V *fastCustomJSON `json:"v,omitempty"`
		}](),
		"custom UnmarshalText": For[struct {
			V fastCustomText `json:"v"`
		}](),
		"validator Valuer": For[struct {
			V fastValuer `json:"v"`
		}](),
		"root UnmarshalJSON":       For[fastRootDecoder](),
		"root convertible to time": For[fastTimeLike](),
		"time.Time": For[struct {
			V time.Time `json:"v"`
		}](),
		"time.Duration": For[struct {
			V time.Duration `json:"v" validate:"omitempty,min=1s"`
		}](),
		"json.Number": For[struct {
			V json.Number `json:"v"`
		}](),
		"[]byte": For[struct {
			V []byte `json:"v"`
		}](),
		"slice": For[struct {
			V []string `json:"v"`
		}](),
		"map": For[struct {
			V map[string]int `json:"v"`
		}](),
		"any": For[struct {
			V any `json:"v"`
		}](),
		"nested struct": For[struct {
			V struct{ A int } `json:"v"`
		}](),
		"array": For[struct {
			V [2]int `json:"v"`
		}](),
		"pointer to pointer": For[struct {
			V **int `json:"v"`
		}](),
		"embedded": For[struct {
			fastEmbedded
			N int `json:"n"`
		}](),
		"embedded pointer": For[struct {
			*FastPart
		}](),
		"email rule": For[struct {
			V string `json:"v" validate:"required,email"`
		}](),
		"alternation": For[struct {
			V string `json:"v" validate:"omitempty,min=5|eq=a"`
		}](),
		"dive": For[struct {
			V []int `json:"v" validate:"omitempty,dive,min=1"`
		}](),
		"required_if": For[struct {
			A string `json:"a"`
			B string `json:"b" validate:"required_if=A x"`
		}](),
		"eqfield": For[struct {
			A string `json:"a"`
			B string `json:"b" validate:"eqfield=A"`
		}](),
		"omitnil": For[struct {
			V *int `json:"v" validate:"omitnil,min=1"`
		}](),
		"omitzero": For[struct {
			V int `json:"v" validate:"omitzero,min=1"`
		}](),
		"unparsable parameter": For[struct {
			V int `json:"v,omitempty" validate:"omitempty,min=abc"`
		}](),
		"negative uint parameter": For[struct {
			V uint `json:"v,omitempty" validate:"omitempty,min=-1"`
		}](),
		"float32 parameter out of range": For[struct {
			V float32 `json:"v,omitempty" validate:"omitempty,max=1e39"`
		}](),
		"oneof on a float": For[struct {
			V float64 `json:"v,omitempty" validate:"omitempty,oneof=1 2"`
		}](),
		"min on a bool": For[struct {
			V *bool `json:"v,omitempty" validate:"omitempty,min=1"`
		}](),
		"required with a parameter": For[struct {
			V string `json:"v" validate:"required=yes"`
		}](),
		"validated json:\"-\" field": For[struct {
			V string `json:"v"`
			H string `json:"-" validate:"omitempty,min=1"`
		}](),
		"json:\"-\" struct field": For[struct {
			V string       `json:"v"`
			H fastEmbedded `json:"-"`
		}](),
		"invalid json name": For[struct {
			//lint:ignore SA5008 an invalid JSON name is what this case tests
			V string `json:"a'b"`
		}](),
	}
	for name, c := range ineligible {
		t.Run(name, func(t *testing.T) {
			if c.fast != nil {
				t.Fatalf("%s has a fast path", c.Type())
			}
		})
	}
	t.Run(`json ",string"`, func(t *testing.T) {
		// CodecFor refuses it on input; the fast path would refuse it too.
		_, ok := compileFastField(&fieldInfo{name: "v", quoted: true, sf: reflect.StructField{Type: reflect.TypeFor[int]()}})
		is.New(t).True(!ok)
	})
	t.Run("eligible", func(t *testing.T) {
		is := is.New(t)
		for _, fc := range fastCases {
			is.True(fc.codec.fast != nil) // every table type has a fast path
		}
		is.True(For[benchInput]().fast != nil)
		is.True(For[listProjects]().fast != nil)
	})
}

// TestFastIneligibleUnchanged checks that an ineligible type keeps encoding/json's
// own behaviour, such as a custom decoder's.
func TestFastIneligibleUnchanged(t *testing.T) {
	is := is.New(t)
	var v fastRootDecoder
	fast, err := For[fastRootDecoder]().decode([]byte(`{"anything":1}`), &v, DecodeOptions{}, "", true)
	is.NoErr(err)
	is.True(!fast)
	is.Equal(v.Name, "custom")

	var tl fastTimeLike
	fast, err = For[fastTimeLike]().decode([]byte(`{}`), &tl, DecodeOptions{}, "", true)
	is.True(!fast)
	is.True(err != nil) // the validator's InvalidValidationError, as before
}

func TestFastRuleParams(t *testing.T) {
	is := is.New(t)
	rules, ok := compileRules("omitempty,oneof=1 02 -3 +4 x 5", fastInt, 64)
	is.True(ok)
	is.Equal(rules[1].ints, []int64{1, -3, 5}) // only canonical base-10 words can equal a formatted int
	rules, ok = compileRules("min=0x10,max=1_000", fastInt, 64)
	is.True(ok)
	is.Equal(rules[0].i, int64(16)) // strconv.ParseInt(p, 0, 64), as the validator's asInt
	is.Equal(rules[1].i, int64(1000))
	_, ok = compileRules("required,", fastString, 64) // an empty rule panics in the validator
	is.True(!ok)
	_, ok = compileRules(strings.Repeat("min=1,", 3)+"max=2", fastString, 64)
	is.True(ok)
}
