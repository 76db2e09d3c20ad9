package schema

import (
	"encoding/json"
	"reflect"
	"testing"
)

// benchInput is the small struct of the allocation promise: three fields,
// one required, two constrained.
type benchInput struct {
	WorkspaceID string `json:"workspace_id" validate:"required"`
	Limit       *int   `json:"limit,omitempty" validate:"omitempty,min=1,max=100"`
	Query       string `json:"query,omitempty" validate:"omitempty,max=200"`
}

var benchArgs = []byte(`{"workspace_id":"ws_123","limit":20,"query":"open issues"}`)

// benchSlowInput is benchInput with one more rule (printascii); it was
// the type that a compiled fast path did not take.
type benchSlowInput struct {
	WorkspaceID string `json:"workspace_id" validate:"required"`
	Limit       *int   `json:"limit,omitempty" validate:"omitempty,min=1,max=100"`
	Query       string `json:"query,omitempty" validate:"omitempty,max=200,printascii"`
}

// benchDefaultInput is benchInput with a default on limit, and
// benchDefaultArgs leave limit out: Decode applies the default.
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
	return defaultValidator().validate.Struct(dst)
}

// BenchmarkDecode: "vurb" is Decode, "vurb-default" with a default to
// apply, "vurb-20.0" with an integer written as a float, "vurb-slow" with
// one more rule; "json+validator" is the floor they are held to.
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
// adds must not allocate beyond what json.Unmarshal and validator.Struct
// do, with rules the validator has built in and with a custom one.
func TestDecodeAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under -race")
	}
	var v benchInput
	c := For[benchInput]()
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
	gotSlow := testing.AllocsPerRun(200, func() {
		if err := slow.Decode(benchArgs, &sv, DecodeOptions{}); err != nil {
			t.Fatal(err)
		}
	})
	t.Logf("Decode: %v allocs/op (printascii: %v), json.Unmarshal+validator.Struct: %v allocs/op", got, gotSlow, floor)
	if got > floor {
		t.Fatalf("Decode allocates %v per call, more than the floor of %v", got, floor)
	}
	if gotSlow > floor {
		t.Fatalf("Decode of benchSlowInput allocates %v per call, more than the floor of %v", gotSlow, floor)
	}
}

// BenchmarkRules compares the validator's Struct with the pass check that
// stands in for it on benchInput's rules.
func BenchmarkRules(b *testing.B) {
	v := NewValidator(nil)
	c := v.CodecFor(reflect.TypeFor[benchInput]())
	var in benchInput
	if err := c.Decode(benchArgs, &in, DecodeOptions{}); err != nil {
		b.Fatal(err)
	}
	b.Run("validator", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if v.validate.Struct(&in) != nil {
				b.Fatal("refused")
			}
		}
	})
	b.Run("passcheck", func(b *testing.B) {
		b.ReportAllocs()
		rv := reflect.ValueOf(&in).Elem()
		for b.Loop() {
			if !c.pass.passes(rv) {
				b.Fatal("cannot tell")
			}
		}
	})
}
