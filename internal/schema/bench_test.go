package schema

import (
	"encoding/json"
	"testing"

	"github.com/matryer/is"
)

// benchInput is the small struct of the allocation promise: three fields,
// one required, two constrained.
type benchInput struct {
	WorkspaceID string `json:"workspace_id" validate:"required"`
	Limit       *int   `json:"limit,omitempty" validate:"omitempty,min=1,max=100"`
	Query       string `json:"query,omitempty" validate:"omitempty,max=200"`
}

var benchArgs = []byte(`{"workspace_id":"ws_123","limit":20,"query":"open issues"}`)

// benchSlowInput is benchInput with one rule the fast path does not mirror
// (printascii): Decode takes the slow path, encoding/json and the validator.
type benchSlowInput struct {
	WorkspaceID string `json:"workspace_id" validate:"required"`
	Limit       *int   `json:"limit,omitempty" validate:"omitempty,min=1,max=100"`
	Query       string `json:"query,omitempty" validate:"omitempty,max=200,printascii"`
}

// benchDefaultInput is benchInput with a default on limit, and
// benchDefaultArgs leave limit out: the fast path applies the default.
type benchDefaultInput struct {
	WorkspaceID string `json:"workspace_id" validate:"required"`
	Limit       *int   `json:"limit,omitempty" default:"20" validate:"omitempty,min=1,max=100"`
	Query       string `json:"query,omitempty" validate:"omitempty,max=200"`
}

var (
	benchDefaultArgs  = []byte(`{"workspace_id":"ws_123","query":"open issues"}`)
	benchIntegralArgs = []byte(`{"workspace_id":"ws_123","limit":20.0,"query":"open issues"}`)
)

// floorDecode is what Decode is measured against: encoding/json and the
// validator on their own, with none of Decode's checks.
func floorDecode(data []byte, dst *benchInput) error {
	if err := json.Unmarshal(data, dst); err != nil {
		return err
	}
	return DefaultValidator().validate.Struct(dst)
}

// BenchmarkDecode: "vurb" takes the fast path, "vurb-default" too with a
// default to apply, "vurb-20.0" with an integer written as a float,
// "vurb-slow" the slow path (an ineligible type, same input);
// "json+validator" is the floor they are held to.
func BenchmarkDecode(b *testing.B) {
	c := For[benchInput]()
	b.Run("vurb", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var v benchInput
			if err := c.Decode(benchArgs, &v, DecodeOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	withDefault := For[benchDefaultInput]()
	b.Run("vurb-default", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var v benchDefaultInput
			if err := withDefault.Decode(benchDefaultArgs, &v, DecodeOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("vurb-20.0", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var v benchInput
			if err := c.Decode(benchIntegralArgs, &v, DecodeOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	slow := For[benchSlowInput]()
	b.Run("vurb-slow", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var v benchSlowInput
			if err := slow.Decode(benchArgs, &v, DecodeOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("json+validator", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var v benchInput
			if err := floorDecode(benchArgs, &v); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestDecodeAllocs holds Decode to the floor: the pre-scan and the checks it
// adds must not allocate. benchInput must take the fast path, which
// allocates only what the values need: one string per string field and one
// value per pointer field; an ineligible type (the slow path) stays at the
// floor too.
func TestDecodeAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under -race")
	}
	is := is.New(t)
	c := For[benchInput]()
	var v benchInput
	fast, err := c.decode(benchArgs, &v, DecodeOptions{}, "", true)
	is.NoErr(err)
	is.True(fast) // benchInput takes the fast path: a silent fallback would hide here
	floor := testing.AllocsPerRun(200, func() {
		v = benchInput{}
		_ = floorDecode(benchArgs, &v)
	})
	got := testing.AllocsPerRun(200, func() {
		if err := c.Decode(benchArgs, &v, DecodeOptions{}); err != nil {
			t.Fatal(err)
		}
	})
	var sv benchSlowInput
	slow := For[benchSlowInput]()
	fast, err = slow.decode(benchArgs, &sv, DecodeOptions{}, "", true)
	is.NoErr(err)
	is.True(!fast) // printascii keeps it on the slow path
	gotSlow := testing.AllocsPerRun(200, func() {
		if err := slow.Decode(benchArgs, &sv, DecodeOptions{}); err != nil {
			t.Fatal(err)
		}
	})
	t.Logf("Decode: %v allocs/op (slow path: %v), json.Unmarshal+validator.Struct: %v allocs/op", got, gotSlow, floor)
	const values = 3 // "ws_123", "open issues", the int behind Limit
	if got > values {
		t.Fatalf("the fast path allocates %v per call, more than the %v values it stores", got, values)
	}
	if gotSlow > floor {
		t.Fatalf("the slow path allocates %v per call, more than the floor of %v", gotSlow, floor)
	}
}
