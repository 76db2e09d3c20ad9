package wire

import (
	"encoding/json"
	"strings"
	"testing"
)

var validJSONSeeds = []string{`{"a":1}`, `[1,2,{"b":"\u00e9"}]`, `"\ud800"`, "\"\xff\"", `1e5`, `-0.5E+3`, `01`, `1.`,
	`[1,]`, ` {} `, `{"a":tru}`, "\"a\tb\"", `"\x"`, `nul`, `[[[]]]`, `{"a":1,}`, `{"a" 1}`, `-`, `1e`, `"\u12"`, "",
	`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"t","arguments":{"q":"x"}}}`}

func TestValidJSONIsJSONValid(t *testing.T) {
	cases := validJSONSeeds
	for _, depth := range []int{jsonMaxDepth - 1, jsonMaxDepth, jsonMaxDepth + 1} {
		cases = append(cases, strings.Repeat("[", depth)+strings.Repeat("]", depth),
			strings.Repeat(`{"a":`, depth)+"1"+strings.Repeat("}", depth),
			`["`+strings.Repeat("[", depth)+`"]`, // brackets in a string: not nesting
			strings.Repeat("[", depth))           // never closed
	}
	for _, c := range cases {
		if got, want := ValidJSON([]byte(c)), json.Valid([]byte(c)); got != want {
			t.Errorf("%.60q (%d bytes): validJSON %v, json.Valid %v", c, len(c), got, want)
		}
	}
}

func TestValidJSONDoesNotRecurseOnDeepBodies(t *testing.T) {
	deep := []byte(strings.Repeat("[", 4<<20)) // what a body limit lets through, far deeper than any stack
	if ValidJSON(deep) {
		t.Fatal("an unclosed array was found valid")
	}
}

func FuzzValidJSONIsJSONValid(f *testing.F) {
	for _, s := range validJSONSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := ValidJSON(b), json.Valid(b); got != want {
			t.Fatalf("%q: validJSON %v, json.Valid %v", b, got, want)
		}
	})
}
