package schema

import (
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"strings"
)

// Values for TestSchemaTruth: valid ones, made from a spec, and mutations
// of them. A JSON value is a string, json.Number, bool, nil, []any or
// map[string]any.

var formatPools = map[string][2][]string{
	"email":     {{"ada@example.com", "b.c@test.org"}, {"not-an-email", "a@", "a b@example.com"}},
	"url":       {{"https://example.com/x", "http://test.org"}, {"not a url", "example", "://x"}},
	"uri":       {{"https://example.com/x", "mailto:ada@example.com"}, {"not a uri", "relative/path"}},
	"uuid":      {{"123e4567-e89b-42d3-a456-426614174000", "ABCDEF01-2345-6789-ABCD-EF0123456789"}, {"xyz", "123e4567e89b42d3a456426614174000"}},
	"uuid4":     {{"123e4567-e89b-42d3-a456-426614174000"}, {"123e4567-e89b-12d3-a456-426614174000", "123E4567-E89B-42D3-A456-426614174000"}},
	"ipv4":      {{"192.168.1.1", "10.0.0.255"}, {"256.1.1.1", "::1", "1.2.3"}},
	"ipv6":      {{"::1", "2001:db8::1"}, {"192.168.1.1", "2001:::1"}},
	"ip":        {{"192.168.1.1", "::1"}, {"1.2.3", "x"}},
	"hostname":  {{"example.com", "a-b.test"}, {"1host", "-bad.com", "a_b"}},
	"date":      {{"2024-01-02", "1999-12-31"}, {"2024-02-30", "24-01-02", "2024-01-02T00:00:00Z"}},
	"date-time": {{"2024-01-02T15:04:05Z", "2024-01-02T15:04:05+02:00"}, {"2024-01-02", "yesterday"}},
}

const plainRunes = "abcxyzé日"

func (g *gen) str(n int, alphabet string) string {
	rs := []rune(alphabet)
	var b strings.Builder
	for range n {
		b.WriteRune(rs[g.pick(len(rs))])
	}
	return b.String()
}

// length picks a valid length for a string spec.
func (v *valueSpec) length(g *gen) int {
	lo, hi := v.lo, v.hi
	if lo < 0 {
		lo = 0
	}
	if hi < 0 {
		hi = lo + 6
	}
	return lo + g.pick(hi-lo+1)
}

// valid returns a value that passes every rule of v.
func (v *valueSpec) valid(g *gen) any {
	switch v.kind {
	case "string":
		return v.validString(g)
	case "bool":
		return v.boolTrue || g.chance(0.5)
	case "int", "uint":
		if v.choices != nil {
			return json.Number(strconv.FormatInt(v.choices[g.pick(len(v.choices))], 10))
		}
		for {
			var x int64
			switch g.pick(3) {
			case 0:
				x = int64(v.nlo) + int64(g.pick(5))
			case 1:
				x = int64(v.nhi) - int64(g.pick(5))
			default:
				x = int64(g.pick(200)) - 50
			}
			if float64(x) >= v.nlo && float64(x) <= v.nhi && (v.ne == "" || strconv.FormatInt(x, 10) != v.ne) {
				return json.Number(strconv.FormatInt(x, 10))
			}
		}
	case "float":
		for {
			x := float64(g.pick(400)-200) / 4
			if g.chance(0.3) {
				x = v.nlo + float64(g.pick(3))/4
			}
			if x >= v.nlo && x <= v.nhi && strconv.FormatFloat(x, 'f', -1, 64) != v.ne {
				return json.Number(strconv.FormatFloat(x, 'f', -1, 64))
			}
		}
	case "slice":
		n := v.minN + g.pick(v.maxN-v.minN+1)
		out := []any{}
		seen := map[string]bool{}
		for tries := 0; len(out) < n && tries < 50; tries++ {
			e := v.elem.valid(g)
			if v.unique {
				k := fmt.Sprint(canonJSON(e))
				if seen[k] {
					continue
				}
				seen[k] = true
			}
			out = append(out, e)
		}
		return out
	case "map":
		out := map[string]any{}
		n := g.pick(v.maxN + 1)
		for len(out) < n {
			out[g.str(1+g.pick(5), "abcdefgh")] = v.elem.valid(g)
		}
		return out
	case "object":
		return v.obj.valid(g)
	}
	panic("no values for " + v.kind)
}

func (v *valueSpec) validString(g *gen) string {
	switch v.class {
	case "plain":
		for {
			s := g.str(v.length(g), plainRunes)
			if s != v.ne {
				return s
			}
		}
	case "oneof":
		return []string{"red", "green", "light blue"}[g.pick(3)]
	case "eq":
		return "yes"
	case "alpha":
		return g.str(max(v.length(g), 1), "abcXYZ")
	case "alphanum":
		return g.str(max(v.length(g), 1), "ab9Z0")
	case "numeric", "number":
		return g.str(max(v.length(g), 1), "0123456789")
	case "hex":
		return g.str(max(v.length(g), 1), "0123456789abcdefABCDEF")
	case "prefix":
		return "ab" + g.str(g.pick(3), "xyz")
	case "suffix":
		return g.str(g.pick(3), "abc") + "yz"
	case "contains":
		return g.str(g.pick(3), "abc") + "mid" + g.str(g.pick(3), "xyz")
	}
	pool := formatPools[v.class][0]
	return pool[g.pick(len(pool))]
}

// invalid returns a value of v's JSON type that breaks one of its rules,
// or nil when every value of that type passes.
func (v *valueSpec) invalid(g *gen) any {
	switch v.kind {
	case "string":
		switch v.class {
		case "plain", "alpha", "alphanum", "numeric", "number", "hex":
			var opts []any
			if v.lo > 0 {
				opts = append(opts, g.str(v.lo-1, "abc"))
			}
			if v.hi >= 0 {
				opts = append(opts, g.str(v.hi+1, "abc"))
			}
			if v.ne != "" {
				opts = append(opts, v.ne)
			}
			if v.class != "plain" {
				opts = append(opts, "a b!")
			}
			if len(opts) == 0 {
				return nil
			}
			return opts[g.pick(len(opts))]
		case "oneof", "eq":
			return "purple"
		case "prefix", "suffix", "contains":
			return "zzz"
		}
		pool := formatPools[v.class][1]
		return pool[g.pick(len(pool))]
	case "bool":
		if v.boolTrue {
			return false
		}
		return nil
	case "int", "uint":
		var opts []any
		if v.choices != nil {
			opts = append(opts, json.Number("4"), json.Number("-1"))
		}
		if v.ne != "" {
			opts = append(opts, json.Number(v.ne))
		}
		lo, hi := typeRange(v.kind, v.bits)
		if v.boundedLo || v.nlo > lo || v.kind == "uint" || v.bits < 64 {
			opts = append(opts, json.Number(strconv.FormatInt(int64(v.nlo)-1-int64(g.pick(3)), 10)))
		}
		if v.boundedHi || v.bits < 64 || v.nhi < hi {
			opts = append(opts, json.Number(strconv.FormatInt(int64(v.nhi)+1+int64(g.pick(3)), 10)))
		}
		if len(opts) == 0 {
			return nil
		}
		return opts[g.pick(len(opts))]
	case "float":
		var opts []any
		if v.boundedLo {
			opts = append(opts, json.Number(strconv.FormatFloat(v.nlo-0.25, 'f', -1, 64)))
		}
		if v.boundedHi {
			opts = append(opts, json.Number(strconv.FormatFloat(v.nhi+0.25, 'f', -1, 64)))
		}
		if v.ne != "" {
			opts = append(opts, json.Number(v.ne))
		}
		if len(opts) == 0 {
			return nil
		}
		return opts[g.pick(len(opts))]
	case "slice":
		switch {
		case v.minN > 0 && g.chance(0.5):
			return []any{}
		case v.maxN < 4:
			out := []any{}
			for range v.maxN + 1 {
				out = append(out, v.elem.valid(g))
			}
			return out
		case v.unique:
			e := v.elem.valid(g)
			return []any{e, e}
		}
		if bad := v.elem.invalid(g); bad != nil {
			return []any{v.elem.valid(g), bad}
		}
		return nil
	case "map":
		if v.keyRules && g.chance(0.5) {
			return map[string]any{"bad key!": v.elem.valid(g)}
		}
		if bad := v.elem.invalid(g); bad != nil {
			return map[string]any{"ok": bad}
		}
		return nil
	}
	return nil
}

// valid returns an object that passes every rule of sg's fields, but
// perhaps not its conditional rules; optional fields are left out at
// random.
func (sg *structGen) valid(g *gen) map[string]any {
	out := map[string]any{}
	sg.fill(g, out)
	return out
}

func (sg *structGen) fill(g *gen, out map[string]any) {
	for _, f := range sg.fields {
		switch {
		case f.embedded != nil:
			f.embedded.fill(g, out)
		case f.optional && g.chance(0.35):
		default:
			out[f.name] = f.val.valid(g)
		}
	}
}

// canonJSON is v as compact JSON with sorted keys.
func canonJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// integerText is the canonical integer text of number n, which must be
// a whole number.
func integerText(n json.Number) json.Number {
	r, ok := new(big.Rat).SetString(string(n))
	if !ok || !r.IsInt() {
		return n
	}
	return json.Number(r.Num().String())
}
