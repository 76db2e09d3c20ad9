package toon

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// Pieces that stress quoting: delimiters, colons, quotes, escapes, list
// markers, brackets, literals and numbers in disguise, padding, controls,
// and non-ASCII text.
var trickyPieces = []string{
	"", " ", "  ", "a", "hello world", "a,b", "a|b", "a\tb", "x:y", "key: value",
	`"quoted"`, `back\slash`, "-", "- item", "-5", "05", "007", "1e5", "1.5", "-0",
	"true", "false", "null", "True", "[1]", "[]", "{}", "{k}", "[2]: x,y",
	"line\nbreak", "cr\rlf", "\x01ctl", "\x7f", "café", "日本語", "🚀", " lead",
	"trail ", "#hash", "a b c", "\u00a0nbsp", "\u2028", "\ufeffbom", "é\u0301",
	",", "|", "\t", ":", `"`, `\`, "[", "}", "0.5", ".5", "5.", "1_000", "NaN",
}

var trickyKeys = []string{
	"id", "name", "_private", "user_name", "a.b", "a..b", ".x", "x.", "full name",
	"a:b", "-lead", "123", "", " ", "[k]", "{k}", "a,b", "a|b", "tab\tkey",
	"line\nkey", `q"k`, "日本", "camelCase", "x1", "data", "items", "🔑",
}

type valueGen struct {
	r *rand.Rand
}

func (g *valueGen) pick(list []string) string { return list[g.r.IntN(len(list))] }

func (g *valueGen) str() string {
	switch g.r.IntN(4) {
	case 0:
		return g.pick(trickyPieces)
	case 1:
		var b strings.Builder
		for n := g.r.IntN(4); n >= 0; n-- {
			b.WriteString(g.pick(trickyPieces))
		}
		return b.String()
	case 2:
		var b strings.Builder
		for n := g.r.IntN(12); n > 0; n-- {
			b.WriteRune(rune(g.r.IntN(0x800)))
		}
		return b.String()
	}
	return fmt.Sprintf("word%d", g.r.IntN(100))
}

func (g *valueGen) key() string {
	if g.r.IntN(3) == 0 {
		return g.str()
	}
	return g.pick(trickyKeys)
}

func (g *valueGen) number() string {
	switch g.r.IntN(9) {
	case 0:
		return strconv.Itoa(g.r.IntN(2000) - 1000)
	case 1:
		return strconv.FormatInt(g.r.Int64()-g.r.Int64(), 10)
	case 2:
		return strconv.FormatFloat(g.r.NormFloat64()*1000, 'f', -1, 64)
	case 3:
		return strconv.FormatFloat(g.r.Float64(), 'g', -1, 64)
	case 4:
		return strconv.FormatFloat(g.r.NormFloat64()*1e30, 'e', -1, 64)
	case 5:
		return strconv.FormatFloat(g.r.Float64()*1e-9, 'E', -1, 64)
	case 6: // beyond int64 and float64 precision
		var b strings.Builder
		if g.r.IntN(2) == 0 {
			b.WriteByte('-')
		}
		b.WriteByte(byte('1' + g.r.IntN(9)))
		for n := g.r.IntN(40); n > 0; n-- {
			b.WriteByte(byte('0' + g.r.IntN(10)))
		}
		if g.r.IntN(2) == 0 {
			b.WriteString(".")
			for n := 1 + g.r.IntN(30); n > 0; n-- {
				b.WriteByte(byte('0' + g.r.IntN(10)))
			}
		}
		return b.String()
	case 7:
		return []string{"0", "-0", "0.0", "-0.0", "1.5000", "1e-6", "1e-7", "1e21", "1E+300", "2.5e-300", "100e-2"}[g.r.IntN(11)]
	}
	return strconv.Itoa(g.r.IntN(10))
}

func (g *valueGen) primitive(b *strings.Builder) {
	switch g.r.IntN(6) {
	case 0:
		b.WriteString("null")
	case 1:
		b.WriteString(strconv.FormatBool(g.r.IntN(2) == 0))
	case 2, 3:
		b.WriteString(g.number())
	default:
		writeJSONString(b, g.str())
	}
}

// value writes a random JSON value of at most depth levels.
func (g *valueGen) value(b *strings.Builder, depth int) {
	if depth == 0 {
		g.primitive(b)
		return
	}
	switch g.r.IntN(8) {
	case 0, 1:
		g.primitive(b)
	case 2, 3:
		g.object(b, depth, g.r.IntN(5))
	case 4:
		g.array(b, depth)
	case 5: // a uniform table, the shape TOON is made for
		keys := g.keys(1 + g.r.IntN(4))
		b.WriteByte('[')
		for i, n := 0, g.r.IntN(5); i < n; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteByte('{')
			for j, k := range keys {
				if j > 0 {
					b.WriteByte(',')
				}
				writeJSONString(b, k)
				b.WriteByte(':')
				g.primitive(b)
			}
			b.WriteByte('}')
		}
		b.WriteByte(']')
	case 6: // arrays of arrays
		b.WriteByte('[')
		for i, n := 0, g.r.IntN(4); i < n; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			g.array(b, depth-1)
		}
		b.WriteByte(']')
	default: // single-key chains, the shape key folding is made for
		b.WriteString("{")
		writeJSONString(b, g.key())
		b.WriteByte(':')
		g.value(b, depth-1)
		b.WriteString("}")
	}
}

func (g *valueGen) keys(n int) []string {
	seen := map[string]bool{}
	var keys []string
	for len(keys) < n {
		if k := g.key(); !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	return keys
}

func (g *valueGen) object(b *strings.Builder, depth, n int) {
	b.WriteByte('{')
	for i, k := range g.keys(n) {
		if i > 0 {
			b.WriteByte(',')
		}
		writeJSONString(b, k)
		b.WriteByte(':')
		g.value(b, depth-1)
	}
	b.WriteByte('}')
}

func (g *valueGen) array(b *strings.Builder, depth int) {
	b.WriteByte('[')
	for i, n := 0, g.r.IntN(5); i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		if depth > 0 && g.r.IntN(8) == 0 {
			b.WriteString("{}")
			continue
		}
		g.value(b, max(depth-1, 0))
	}
	b.WriteByte(']')
}

func writeJSONString(b *strings.Builder, s string) {
	data, _ := json.Marshal(s)
	b.Write(data)
}

func roundTrip(t *testing.T, doc string, enc, dec []Option) {
	t.Helper()
	text, err := FromJSON([]byte(doc), enc...)
	if err != nil {
		t.Fatalf("FromJSON(%s): %v", doc, err)
	}
	back, err := ToJSON(text, dec...)
	if err != nil {
		t.Fatalf("ToJSON failed: %v\nJSON: %s\nTOON:\n%s", err, doc, text)
	}
	same, err := sameAfterTOON([]byte(doc), back)
	if err != nil || !same {
		t.Fatalf("round trip changed the value (%v)\n  in: %s\n out: %s\nTOON:\n%s", err, doc, back, text)
	}
}

// TestRoundTrip checks ToJSON(FromJSON(x)) == x on 10,000 random values
// for each delimiter.
func TestRoundTrip(t *testing.T) {
	for _, d := range []Delimiter{Comma, Tab, Pipe} {
		t.Run(delimName(byte(d)), func(t *testing.T) {
			g := valueGen{r: rand.New(rand.NewPCG(42, uint64(d)))}
			for i := range 10000 {
				var b strings.Builder
				g.value(&b, 1+i%5)
				indent := 2
				if i%7 == 0 {
					indent = 1 + i%5
				}
				roundTrip(t, b.String(), []Option{WithDelimiter(d), WithIndent(indent)}, []Option{WithIndent(indent)})
			}
		})
	}
}

// TestRoundTripFolded checks that key folding and path expansion invert
// each other when no original key contains a dot.
func TestRoundTripFolded(t *testing.T) {
	g := valueGen{r: rand.New(rand.NewPCG(7, 7))}
	n := 0
	for n < 3000 {
		var b strings.Builder
		g.value(&b, 5)
		doc := b.String()
		if tree, _ := parseTree([]byte(doc)); hasDottedKey(tree) {
			continue
		}
		n++
		depth := []int{0, 1, 2, 3, 1 << 30}[n%5]
		roundTrip(t, doc,
			[]Option{WithKeyFolding(KeyFoldingSafe), WithFlattenDepth(depth)},
			[]Option{WithExpandPaths(ExpandPathsSafe)})
	}
}

func hasDottedKey(n jnode) bool {
	for i, k := range n.keys {
		if strings.Contains(k, ".") || hasDottedKey(n.kids[i]) {
			return true
		}
	}
	if n.kind == "array" {
		for _, k := range n.kids {
			if hasDottedKey(k) {
				return true
			}
		}
	}
	return false
}
