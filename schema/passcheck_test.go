package schema

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/go-playground/validator/v10"
	"github.com/matryer/is"
)

// The pass check stands in for the validator when it can tell a struct
// passes. These tests hold its verdict to the validator's on structs made
// at run time (reflect.StructOf) with random kinds, rules and values: the
// check must never pass what the validator refuses, and, where it is
// built, must pass everything the validator passes, or it saves nothing.

var passKinds = []reflect.Type{
	reflect.TypeFor[string](), reflect.TypeFor[bool](), reflect.TypeFor[int](), reflect.TypeFor[int8](),
	reflect.TypeFor[int64](), reflect.TypeFor[uint](), reflect.TypeFor[uint16](), reflect.TypeFor[float32](),
	reflect.TypeFor[float64](),
}

var passParams = []string{"0", "1", "2", "3", "5", "100", "-1", "1.5", "0x10", "1e2", "255", "-128"}

var passOneOfs = []string{"a b", "fast slow", "1 2 3", "07 7", "'x y' z", "-1 0 1", "日本 a"}

func randomRule(r *rand.Rand) string {
	switch n := r.IntN(14); {
	case n == 0:
		return "omitempty"
	case n == 1:
		return "required"
	case n == 2:
		return "oneof=" + passOneOfs[r.IntN(len(passOneOfs))]
	case n == 3:
		return []string{"email", "dive", "required_if=X 1", "eq=1", "min=1|max=3", "len=0x2C"}[r.IntN(6)]
	default:
		op := []string{"min", "max", "len", "gt", "gte", "lt", "lte"}[r.IntN(7)]
		return op + "=" + passParams[r.IntN(len(passParams))]
	}
}

func randomTag(r *rand.Rand) string {
	n := r.IntN(4)
	tag := ""
	for i := range n {
		if i > 0 {
			tag += ","
		}
		tag += randomRule(r)
	}
	return tag
}

func randomValue(r *rand.Rand, t reflect.Type) reflect.Value {
	v := reflect.New(t).Elem()
	switch t.Kind() {
	case reflect.String:
		v.SetString([]string{"", "a", "ab", "abc", "fast", "slow", "x y", "z", "1", "07", "日本", "héllo", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}[r.IntN(13)])
	case reflect.Bool:
		v.SetBool(r.IntN(2) == 0)
	case reflect.Int, reflect.Int8, reflect.Int64:
		v.SetInt([]int64{0, 1, -1, 2, 3, 5, 7, 16, 99, 100, 101, -128, 127}[r.IntN(13)])
	case reflect.Uint, reflect.Uint16:
		v.SetUint([]uint64{0, 1, 2, 3, 5, 7, 16, 100, 101, 255, 65535}[r.IntN(11)])
	case reflect.Float32, reflect.Float64:
		v.SetFloat([]float64{0, math.Copysign(0, -1), math.NaN(), math.Inf(1), 0.5, 1, 1.5, 2, 100, 100.000001, -1, 1e300}[r.IntN(12)])
	}
	return v
}

func TestPassCheckAgreesWithTheValidator(t *testing.T) {
	v := NewValidator(nil)
	r := rand.New(rand.NewPCG(1, 2))
	built, passed, refused := 0, 0, 0
	for range 20000 {
		var fields []reflect.StructField
		for i := range 1 + r.IntN(3) {
			ft := passKinds[r.IntN(len(passKinds))]
			if r.IntN(3) == 0 {
				ft = reflect.PointerTo(ft)
			}
			fields = append(fields, reflect.StructField{Name: fmt.Sprintf("F%d", i), Type: ft,
				Tag: reflect.StructTag(fmt.Sprintf(`json:"f%d" validate:"%s"`, i, randomTag(r)))})
		}
		if r.IntN(5) == 0 {
			fields = append(fields, reflect.StructField{Name: "List", Type: reflect.TypeFor[[]string]()},
				reflect.StructField{Name: "At", Type: reflect.TypeFor[time.Time]()})
		}
		st := reflect.StructOf(fields)
		pc := newPassCheck(st, false)
		if pc == nil {
			continue
		}
		built++
		for range 8 {
			val := reflect.New(st)
			for i, f := range fields {
				if f.Type.Kind() == reflect.Pointer {
					if r.IntN(3) > 0 {
						p := reflect.New(f.Type.Elem())
						p.Elem().Set(randomValue(r, f.Type.Elem()))
						val.Elem().Field(i).Set(p)
					}
				} else if f.Name != "List" && f.Name != "At" {
					val.Elem().Field(i).Set(randomValue(r, f.Type))
				}
			}
			want := v.validate.Struct(val.Interface()) == nil
			got := pc.passes(val.Elem())
			if got != want {
				t.Fatalf("%s = %+v: the check says passes=%v, the validator %v", st, val.Elem().Interface(), got, want)
			}
			if want {
				passed++
			} else {
				refused++
			}
		}
	}
	// Not vacuous: the check was built for many types, and both verdicts came up.
	if built < 3000 || passed < 3000 || refused < 3000 {
		t.Fatalf("built %d checks, %d values passed, %d refused: the generator no longer exercises the check", built, passed, refused)
	}
}

func TestPassCheckIsNotBuiltWhereItCannotMirrorTheValidator(t *testing.T) {
	type inner struct {
		A string `validate:"required"`
	}
	type embedded struct{ inner }
	type nested struct{ In inner }
	type viaInterface struct{ Any any }
	type unknownRule struct {
		A string `validate:"email"`
	}
	type duration struct {
		D time.Duration `validate:"min=1s"`
	}
	type floatOneOf struct {
		F float64 `validate:"oneof=1 2"`
	}
	type plain struct {
		A string `validate:"required,max=5"`
		B *int   `validate:"omitempty,min=1"`
	}
	tests := []struct {
		name    string
		t       reflect.Type
		foreign bool
		built   bool
	}{
		{"an embedded struct", reflect.TypeFor[embedded](), false, false},
		{"a nested struct", reflect.TypeFor[nested](), false, false},
		{"an interface field", reflect.TypeFor[viaInterface](), false, false},
		{"a rule it does not know", reflect.TypeFor[unknownRule](), false, false},
		{"a duration, whose parameters are durations", reflect.TypeFor[duration](), false, false},
		{"oneof on a float, where the validator panics", reflect.TypeFor[floatOneOf](), false, false},
		{"a caller's own validator", reflect.TypeFor[plain](), true, false},
		{"common rules on scalars", reflect.TypeFor[plain](), false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			is.Equal(newPassCheck(tt.t, tt.foreign) != nil, tt.built)
		})
	}
}

func TestDecodeKeepsTheValidatorsWordsWhenACheckedRuleFails(t *testing.T) {
	is := is.New(t)
	type args struct {
		Query string `json:"query" validate:"required,max=5"`
		Limit *int   `json:"limit,omitempty" validate:"omitempty,min=1,max=100"`
	}
	v := NewValidator(nil)
	c := v.CodecFor(reflect.TypeFor[args]())
	is.True(c.pass != nil) // the check stands in for the validator on these rules
	var a args
	is.NoErr(c.Decode([]byte(`{"query":"go","limit":3}`), &a, DecodeOptions{}))
	err := c.Decode([]byte(`{"query":"golang","limit":300}`), &a, DecodeOptions{})
	is.True(err != nil)
	plain := NewValidator(validator.New()) // the same rules, always through the validator
	want := plain.CodecFor(reflect.TypeFor[args]()).Decode([]byte(`{"query":"golang","limit":300}`), &a, DecodeOptions{})
	is.Equal(err.Error(), want.Error())
}
