package toon

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/matryer/is"
)

func TestDecodeErrors(t *testing.T) {
	cases := []struct {
		name, in string
		opts     []Option
		line     int
		msg      string
	}{
		{"count", "a: 1\nb[2]: x", nil, 2, "array length [2] does not match the 1 items found"},
		{"row width", "t[2]{a,b}:\n  1,2\n  3", nil, 3, "row has 1 values but the header declares 2 fields"},
		{"rows", "t[1]{a}:\n  1\n  2", nil, 1, "array length [1] does not match the 2 items found"},
		{"list items", "x:\n  l[1]:\n    - a\n    - b", nil, 2, "array length [1] does not match the 2 items found"},
		{"missing colon", "a: 1\nb", nil, 2, `missing ":" after key in "b"; a field is "key: value"`},
		{"indent", "a:\n   b: 1", nil, 2, "indentation of 3 spaces is not a multiple of 2"},
		{"tab indent", "a:\n\tb: 1", nil, 2, "tab in indentation; indent with 2 spaces per level"},
		{"deeper", "a: 1\n  b: 2", nil, 2, "unexpected indentation: expected depth 0, found 1"},
		{"duplicate", "a: 1\nb: 2\na: 3", nil, 3, `duplicate key "a" (first at line 1)`},
		{"blank in list", "l[2]:\n  - a\n\n  - b", nil, 3, "blank line inside an array"},
		{"escape", `a: "x\q"`, nil, 1, `invalid escape \q; valid escapes are \\ \" \n \r \t \uXXXX`},
		{"surrogate", `a: "\ud83d\ude80"`, nil, 1, `\ud83d is a UTF-16 surrogate; write the character itself`},
		{"unterminated", "a:\n  b: \"x", nil, 2, "unterminated string: missing closing quote"},
		{"after quote", `a: "x" y`, nil, 1, `unexpected " y" after quoted string`},
		{"header", "a[2] : x,y", nil, 1, `unexpected " : x,y" after array header; the header must end with ":"`},
		{"length", "a[02]: x,y", nil, 1, `invalid array length in "[02]": want [N] with N a non-negative integer without leading zeros`},
		{"no key", "a:\n  [1]: x", nil, 2, "array header without a key inside an object"},
		{"not an item", "l[1]:\n  x: 1", nil, 2, `expected a list item "- ..." in the array declared on line 1`},
		{"after root array", "[1]: a\nb: 2", nil, 2, "unexpected content after the root array"},
		{"conflict", "a.b: 1\na.b.c: 2", []Option{WithExpandPaths(ExpandPathsSafe)}, 2, `expansion conflict at path "a.b" (primitive vs object)`},
		{"control char", "a: \"x\x01\"", nil, 1, "control character U+0001 in quoted string; escape it"},
		{"field delimiter", "t[1|]{a,b}:\n  1|2", nil, 1, `field "a,b" contains ',' but the header declares pipe as delimiter; use the same delimiter in [] and {}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			_, err := ToJSON([]byte(c.in), c.opts...)
			var se *SyntaxError
			is.True(errors.As(err, &se)) // a *SyntaxError
			is.Equal(se.Line, c.line)
			is.Equal(se.Msg, c.msg)
		})
	}
}

func TestDecodeLenient(t *testing.T) {
	lenient := []Option{WithStrict(false)}
	cases := []struct {
		name, in, want string
		opts           []Option
	}{
		{"count ignored", "a[3]: x,y", `{"a":["x","y"]}`, lenient},
		{"short row", "t[1]{a,b}:\n  1", `{"t":[{"a":1}]}`, lenient},
		{"long row", "t[1]{a}:\n  1,2", `{"t":[{"a":1}]}`, lenient},
		{"last duplicate wins in place", "a: 1\nb: 2\na: 3", `{"a":3,"b":2}`, lenient},
		{"tab indentation", "a:\n\tb:\n\t\tc: 1", `{"a":{"b":{"c":1}}}`, lenient},
		{"rounded indentation", "a:\n   b: 1", `{"a":{"b":1}}`, lenient},
		{"blank lines in rows", "t[2]{a}:\n  1\n\n  2", `{"t":[{"a":1},{"a":2}]}`, lenient},
		{"blank line before the first item", "l[1]:\n\n  - a\nt[1]{x}:\n\n  1", `{"l":["a"],"t":[{"x":1}]}`, nil},
		{"CRLF", "a: 1\r\nb[2]: x,y\r\n", `{"a":1,"b":["x","y"]}`, nil},
		{"key order kept", "z: 1\na: 2\nm: 3", `{"z":1,"a":2,"m":3}`, nil},
		{"big numbers exact", "n: 98765432109876543210.000100", `{"n":98765432109876543210.0001}`, nil},
		{"huge numbers in exponent form", "n: 123456789012345678901234567890", `{"n":1.2345678901234567890123456789e+29}`, nil},
		{"exponents canonical", "a[3]: 1e-7,1E21,-0.0", `{"a":[1e-7,1e+21,0]}`, nil},
		{"empty list item array", "l[1]:\n  - []", `{"l":[[]]}`, nil},
		{"invalid UTF-8 replaced", "a: x\xffy", `{"a":"x` + "\uFFFD" + `y"}`, nil},
		{"unicode escapes", `a: "\u00e9\u00C9\t"`, `{"a":"éÉ\t"}`, nil},
		{"spaces before colon", `"k" : v`, `{"k":"v"}`, nil},
		{"indent 4", "a:\n    b[1]:\n        - x: 1", `{"a":{"b":[{"x":1}]}}`, []Option{WithIndent(4)}},
		{"primitive root with brackets", "hello [world]", `"hello [world]"`, nil},
		{"bare hyphen item", "l[2]:\n  -\n  - -x", `{"l":[{},"-x"]}`, nil},
		{"nested list item object", "l[1]:\n  - a:\n      b: 1\n    c: 2", `{"l":[{"a":{"b":1},"c":2}]}`, nil},
		{"expansion merge", "a.b: 1\na:\n  c: 2", `{"a":{"b":1,"c":2}}`, []Option{WithExpandPaths(ExpandPathsSafe)}},
		{"expansion in rows and items", "l[1]:\n  - x.y: 1\nt[1]{p.q}:\n  2", `{"l":[{"x":{"y":1}}],"t":[{"p":{"q":2}}]}`, []Option{WithExpandPaths(ExpandPathsSafe)}},
		{"expansion skips non-identifiers", "a.1: 1\n\"b.c\": 2", `{"a.1":1,"b.c":2}`, []Option{WithExpandPaths(ExpandPathsSafe)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			out, err := ToJSON([]byte(c.in), c.opts...)
			is.NoErr(err)
			is.Equal(string(out), c.want)
		})
	}
}

func TestUnmarshal(t *testing.T) {
	is := is.New(t)
	type item struct {
		SKU   string  `json:"sku"`
		Qty   int     `json:"qty"`
		Price float64 `json:"price"`
	}
	var order struct {
		ID    string `json:"id"`
		Items []item `json:"items"`
		Note  *string
	}
	in := "id: A-1\nitems[2]{sku,qty,price}:\n  X,2,9.99\n  Y,1,14.5\nNote: null"
	is.NoErr(Unmarshal([]byte(in), &order))
	is.Equal(order.ID, "A-1")
	is.Equal(order.Items, []item{{"X", 2, 9.99}, {"Y", 1, 14.5}})
	is.True(order.Note == nil)

	var anyV any
	is.NoErr(Unmarshal([]byte("a[2]: 1,x"), &anyV))
	is.Equal(anyV, map[string]any{"a": []any{1.0, "x"}})

	err := Unmarshal([]byte("qty: many"), &item{})
	var te *json.UnmarshalTypeError
	is.True(errors.As(err, &te)) // encoding/json's error, wrapped
	is.True(strings.HasPrefix(err.Error(), "toon: "))

	is.Equal(Unmarshal([]byte("a: 1"), item{}).Error(), "toon: Unmarshal needs a non-nil pointer, got toon.item")
	var se *SyntaxError
	is.True(errors.As(Unmarshal([]byte("a[2]: 1"), &anyV), &se))
}

// TestMarshalUnmarshal checks that Go values survive TOON as they survive
// JSON.
func TestMarshalUnmarshal(t *testing.T) {
	is := is.New(t)
	type inner struct {
		Tags []string       `json:"tags"`
		Meta map[string]int `json:"meta"`
	}
	type outer struct {
		Name   string  `json:"name"`
		Rows   []inner `json:"rows"`
		Matrix [][]int `json:"matrix"`
		Ptr    *inner  `json:"ptr"`
		Blob   []byte  `json:"blob"`
		Big    uint64  `json:"big"`
	}
	in := outer{
		Name:   "- x: [y]",
		Rows:   []inner{{Tags: []string{"a", "", " b "}, Meta: map[string]int{"k": 1}}, {}},
		Matrix: [][]int{{1, 2}, {}, {3}},
		Ptr:    &inner{Tags: []string{}},
		Blob:   []byte{0, 1, 2, 255},
		Big:    1<<64 - 1,
	}
	for _, d := range []Delimiter{Comma, Tab, Pipe} {
		text, err := Marshal(in, WithDelimiter(d))
		is.NoErr(err)
		var out outer
		is.NoErr(Unmarshal(text, &out))
		is.Equal(out, in)
	}
}

func TestDecodeWideObjects(t *testing.T) {
	is := is.New(t)
	var b strings.Builder
	for i := range 20 {
		b.WriteString("k" + strconv.Itoa(i) + ": " + strconv.Itoa(i) + "\n")
	}
	b.WriteString("k7: last\n")
	_, err := ToJSON([]byte(b.String()))
	is.Equal(err.Error(), `toon: line 21: duplicate key "k7" (first at line 8)`)
	out, err := ToJSON([]byte(b.String()), WithStrict(false))
	is.NoErr(err)
	is.True(strings.Contains(string(out), `"k6":6,"k7":"last","k8":8`))

	// Expansion into a wide object merges in place.
	b.Reset()
	for i := range 12 {
		b.WriteString("a.k" + strconv.Itoa(i) + ": " + strconv.Itoa(i) + "\n")
	}
	b.WriteString("a:\n  k3: x\n")
	_, err = ToJSON([]byte(b.String()), WithExpandPaths(ExpandPathsSafe))
	is.Equal(err.Error(), `toon: line 14: expansion conflict at path "a.k3" (primitive vs primitive)`)
	out, err = ToJSON([]byte(b.String()), WithExpandPaths(ExpandPathsSafe), WithStrict(false))
	is.NoErr(err)
	is.True(strings.HasPrefix(string(out), `{"a":{"k0":0,"k1":1,"k2":2,"k3":"x","k4":4`))
}
