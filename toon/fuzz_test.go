package toon

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// fixtureSeeds returns the inputs of the official fixtures of one category
// (TOON texts for decode, JSON texts for encode), or nil without them.
func fixtureSeeds(category string) [][]byte {
	dir := os.Getenv("TOON_FIXTURES")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared", "toon-spec", "tests", "fixtures")
	}
	files, _ := filepath.Glob(filepath.Join(dir, category, "*.json"))
	var seeds [][]byte
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		var f fixtureFile
		if json.Unmarshal(data, &f) != nil {
			continue
		}
		for _, c := range f.Tests {
			if category == "encode" {
				seeds = append(seeds, c.Input)
				continue
			}
			var s string
			if json.Unmarshal(c.Input, &s) == nil {
				seeds = append(seeds, []byte(s))
			}
		}
	}
	return seeds
}

var decodeSeeds = []string{
	"",
	"a: 1",
	"users[2]{id,name}:\n  1,Ada\n  2,Bob",
	"items[3]:\n  - 1\n  - a: 1\n    b:\n      c: x\n  -",
	"[2|]: a|\"b|c\"",
	"x[2\t]{a\tb}:\n  1\t2\n  3\t\"4\"",
	"a.b.c: 1\na.b.d[2]: x,y",
	"- a\n- b",
	"\"k\\u00e9y\": \"v\\n\"",
	"items[1]:\n  - users[2]{id}:\n      1\n      2\n    note: x",
	"root:\n  level[1]:\n    - [2]: 1,2",
}

// FuzzDecode checks that ToJSON never panics, and that whatever it accepts
// is valid JSON which survives another trip through TOON unchanged (but
// for the row key order the tabular form imposes).
func FuzzDecode(f *testing.F) {
	for _, s := range decodeSeeds {
		f.Add([]byte(s), uint8(0))
	}
	for _, s := range fixtureSeeds("decode") {
		f.Add(s, uint8(0))
	}
	f.Fuzz(func(t *testing.T, data []byte, mode uint8) {
		opts := []Option{WithStrict(mode&1 == 0)}
		if mode&2 != 0 {
			opts = append(opts, WithExpandPaths(ExpandPathsSafe))
		}
		if mode&4 != 0 {
			opts = append(opts, WithIndent(4))
		}
		js, err := ToJSON(data, opts...)
		if err != nil {
			return
		}
		if !json.Valid(js) {
			t.Fatalf("ToJSON produced invalid JSON %q", js)
		}
		text, err := FromJSON(js)
		if err != nil {
			t.Fatalf("FromJSON(%s): %v", js, err)
		}
		again, err := ToJSON(text)
		if err != nil {
			t.Fatalf("re-decoding failed: %v\nJSON: %s\nTOON:\n%s", err, js, text)
		}
		if same, err := sameAfterTOON(js, again); err != nil || !same {
			t.Fatalf("second trip changed the value\nfirst:  %s\nsecond: %s\nTOON:\n%s", js, again, text)
		}
	})
}

var jsonSeeds = []string{
	`null`, `0`, `-0.0`, `1e-7`, `"x"`, `""`, `[]`, `{}`,
	`{"a":{"b":{"c":[1,2]}},"a.b":1}`,
	`[{"id":1,"name":"Ada"},{"name":"Bob","id":2}]`,
	`[[1,2],[],[{"a":1}],"- x",{}]`,
	`{"text":"a,b|c\td: \"e\"","n":123456789012345678901234567890.5}`,
	`{"":[{"":""}],"-":"-","[0]":"[0]:"}`,
}

// FuzzRoundTrip checks that any valid JSON comes back from TOON as the
// same JSON value, with each delimiter, and with folding and expansion.
func FuzzRoundTrip(f *testing.F) {
	for _, s := range jsonSeeds {
		f.Add([]byte(s), uint8(0))
	}
	for _, s := range fixtureSeeds("encode") {
		f.Add(s, uint8(0))
	}
	f.Fuzz(func(t *testing.T, data []byte, mode uint8) {
		if !json.Valid(data) {
			return
		}
		delim := []Delimiter{Comma, Tab, Pipe}[int(mode)%3]
		enc := []Option{WithDelimiter(delim), WithIndent(1 + int(mode>>2)%4)}
		dec := []Option{WithIndent(1 + int(mode>>2)%4)}
		text, err := FromJSON(data, enc...)
		if err != nil {
			t.Fatalf("FromJSON: %v", err)
		}
		back, err := ToJSON(text, dec...)
		if err != nil {
			t.Fatalf("ToJSON: %v\nTOON:\n%s", err, text)
		}
		same, err := sameAfterTOON(data, back)
		if err != nil || !same {
			t.Fatalf("round trip changed the value (%v)\n  in: %s\n out: %s\nTOON:\n%s", err, data, back, text)
		}
	})
}
