package schema

import (
	"testing"

	"github.com/matryer/is"
)

type numbersIn struct {
	Count int    `json:"count,omitempty"`
	Small *int8  `json:"small,omitempty"`
	Uns   uint16 `json:"uns,omitempty" validate:"omitempty,oneof=1 2 100"`
	Ratio float64
}

func TestIntText(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string
		st   integralStatus
	}{
		{"7", "7", integralOK}, {"7.0", "7", integralOK}, {"-833.000", "-833", integralOK}, {"1e2", "100", integralOK},
		{"1E+2", "100", integralOK}, {"150e-1", "15", integralOK}, {"0.0", "0", integralOK}, {"-0", "0", integralOK},
		{"0e999999999999", "0", integralOK}, {"12.50e1", "125", integralOK},
		{"7.5", "", integralFractional}, {"1e-1", "", integralFractional}, {"15e-1", "", integralFractional},
		{"1e21", "", integralHuge}, {"1e999999999999", "", integralHuge}, {"123456789012345678901234567890", "", integralHuge},
	} {
		got, st := intText([]byte(tc.in), nil)
		if string(got) != tc.want || st != tc.st {
			t.Errorf("intText(%s) = %q, %d; want %q, %d", tc.in, got, st, tc.want, tc.st)
		}
	}
}

// TestIntegralNumbers: whole numbers written as floats are integers; a
// fraction is refused naming the value; null is refused.
func TestIntegralNumbers(t *testing.T) {
	c := For[numbersIn]()
	is := is.New(t)
	var v numbersIn
	err := c.Decode([]byte(`{"count":-833.0,"small":1.27e2,"uns":1e2,"Ratio":7.0}`), &v, DecodeOptions{})
	is.NoErr(err)
	is.Equal(v, numbersIn{Count: -833, Small: ptr(int8(127)), Uns: 100, Ratio: 7})
	err = c.Decode([]byte(`{"count":7.5,"small":1.28e2,"uns":-0.0}`), &v, DecodeOptions{})
	is.Equal(err.Error(), "count: must be an integer, got 7.5; small: 1.28e2 is out of range for int8 (-128 to 127); uns: must be one of: 1, 2, 100")
	err = c.Decode([]byte(`{"count":null}`), &v, DecodeOptions{})
	is.Equal(err.Error(), "count: must not be null: leave the property out instead")
}

func ptr[T any](v T) *T { return &v }
