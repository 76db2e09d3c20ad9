package schema

import "testing"

// FuzzFastDecode is the differential proof on arbitrary bytes: for every
// eligible type of fastCases, Decode with the fast path and Decode forced
// onto the slow path (encoding/json + validator) return the same error text
// or none and leave the same value, and the fast path accepts by itself
// everything the slow path accepts (unless a skipped key reaches a field
// through encoding/json's case-insensitive match, where it must step aside).
func FuzzFastDecode(f *testing.F) {
	for _, fc := range fastCases {
		for _, in := range fc.inputs {
			f.Add([]byte(in))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, fc := range fastCases {
			opts := DecodeOptions{Limits: Limits{MaxBytes: 1 << 16, MaxDepth: 32}}
			usedFast, err := decodeBoth(t, fc.codec, data, opts, fc.skip)
			if err == nil && !usedFast && !fc.codec.fast.folds(fc.skip) {
				t.Fatalf("%s %q: accepted, but not by the fast path", fc.codec.Type(), data)
			}
		}
	})
}
