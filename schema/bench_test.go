package schema

import (
	"encoding/json"
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

// floorDecode is what Decode is measured against: encoding/json and the
// validator on their own, with none of Decode's checks.
func floorDecode(data []byte, dst *benchInput) error {
	if err := json.Unmarshal(data, dst); err != nil {
		return err
	}
	return validate.Struct(dst)
}

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
// adds must not allocate.
func TestDecodeAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under -race")
	}
	c := For[benchInput]()
	var v benchInput
	floor := testing.AllocsPerRun(200, func() {
		v = benchInput{}
		_ = floorDecode(benchArgs, &v)
	})
	got := testing.AllocsPerRun(200, func() {
		if err := c.Decode(benchArgs, &v, DecodeOptions{}); err != nil {
			t.Fatal(err)
		}
	})
	t.Logf("Decode: %v allocs/op, json.Unmarshal+validator.Struct: %v allocs/op", got, floor)
	if got > floor {
		t.Fatalf("Decode allocates %v per call, more than the floor of %v", got, floor)
	}
}
