package manifest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/vurb-go/vurb/manifest"
)

// TestDiffIsSound holds Diff to an independent JSON Schema 2020-12
// validator (santhosh-tekuri/jsonschema): over thousands of generated
// input schemas and mutations of them, whenever Diff calls the change
// compatible, every generated call the old schema accepts, the new one
// accepts too. Diff may call a harmless change breaking (it does not
// match patterns or order formats), never a harmful one compatible.
func TestDiffIsSound(t *testing.T) {
	pairs, compatible, calls := 4000, 0, 0
	if testing.Short() {
		pairs = 500
	}
	r := rand.New(rand.NewPCG(2026, 7))
	for i := range pairs {
		old := genObject(r, 2)
		new := clone(old)
		for range 1 + r.IntN(3) {
			mutate(r, new)
		}
		changes := manifest.Diff(tools(input(base, mustJSON(old))), tools(input(base, mustJSON(new))))
		if manifest.Breaking(changes) {
			continue
		}
		compatible++
		oldS, newS := compile(t, old), compile(t, new)
		g := newCallGen(r, old, new)
		for range 60 {
			call := g.call(old)
			if oldS.Validate(call) != nil {
				continue
			}
			calls++
			if err := newS.Validate(call); err != nil {
				var lines []string
				for _, c := range changes {
					lines = append(lines, c.String())
				}
				t.Fatalf("pair %d: Diff calls the change compatible, yet a call the old schema accepts is refused\nold:  %s\nnew:  %s\ncall: %s\nchanges:\n  %s\nvalidator: %v",
					i, mustJSON(old), mustJSON(new), mustJSON(call), strings.Join(lines, "\n  "), err)
			}
		}
	}
	t.Logf("%d schema pairs, %d called compatible, %d calls accepted by the old schema checked against the new", pairs, compatible, calls)
	// The test has teeth only if many pairs are compatible and checked.
	if compatible < pairs/10 || calls < compatible*5 {
		t.Fatalf("too few compatible pairs (%d) or checked calls (%d): the generator no longer exercises Diff", compatible, calls)
	}
}

// TestDiffSoundnessCases are the changes Diff once called compatible
// although the validator refused an old call under the new schema.
func TestDiffSoundnessCases(t *testing.T) {
	for _, tc := range []struct{ name, old, new, call string }{
		{"required name not under properties",
			`{"type":"object","properties":{"a":{"type":"string"}}}`,
			`{"type":"object","properties":{"a":{"type":"string"}},"required":["owner"]}`, `{"a":"x"}`},
		{"const beside an enum",
			`{"type":"object","properties":{"cur":{"enum":["EUR","USD"]}}}`,
			`{"type":"object","properties":{"cur":{"enum":["EUR","USD"],"const":"EUR"}}}`, `{"cur":"USD"}`},
		{"field named on an open object",
			`{"type":"object"}`,
			`{"type":"object","properties":{"n":{"type":"integer"}}}`, `{"n":"ten"}`},
		{"field named beside additionalProperties",
			`{"type":"object","additionalProperties":{"type":"string"}}`,
			`{"type":"object","properties":{"n":{"type":"integer"}},"additionalProperties":{"type":"string"}}`, `{"n":"ten"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var old, new any
			must(t, json.Unmarshal([]byte(tc.old), &old))
			must(t, json.Unmarshal([]byte(tc.new), &new))
			call := decodeInstance(t, tc.call)
			if compile(t, old).Validate(call) != nil || compile(t, new).Validate(call) == nil {
				t.Fatal("the case does not show a refused call")
			}
			if !manifest.Breaking(manifest.Diff(tools(input(base, tc.old)), tools(input(base, tc.new)))) {
				t.Fatal("Diff calls the change compatible")
			}
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func mustJSON(v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(data)
}

func clone(v any) any {
	var out any
	_ = json.Unmarshal([]byte(mustJSON(v)), &out)
	return out
}

func compile(t *testing.T, schema any) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(mustJSON(schema)))
	must(t, err)
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	must(t, c.AddResource("mem://s.json", doc))
	s, err := c.Compile("mem://s.json")
	if err != nil {
		t.Fatalf("%s: %v", mustJSON(schema), err)
	}
	return s
}

func decodeInstance(t *testing.T, doc string) any {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(doc))
	must(t, err)
	return v
}

// names are the property names schemas and calls draw from.
var names = []string{"a", "b", "c", "d"}

// pool are the scalar values enums, consts and calls draw from.
var pool = []any{"", "a", "ab", "abc", "abcdef", "EUR", "USD", "x@y.z", 0.0, 1.0, 2.0, 3.0, 5.0, 10.0, 100.0, -1.0, 1.5, true, false, nil}

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

// genObject is an object schema: some properties, some of them (and
// sometimes a name it does not describe) required, open, closed or open
// to one type of value.
func genObject(r *rand.Rand, depth int) map[string]any {
	s := map[string]any{"type": "object"}
	props := map[string]any{}
	for _, n := range names {
		if r.IntN(2) == 0 {
			props[n] = genLeaf(r, depth-1)
		}
	}
	s["properties"] = props
	var req []any
	for _, n := range names {
		if _, ok := props[n]; ok && r.IntN(3) == 0 || r.IntN(12) == 0 {
			req = append(req, n)
		}
	}
	if req != nil {
		s["required"] = req
	}
	switch r.IntN(4) {
	case 0:
		s["additionalProperties"] = false
	case 1:
		s["additionalProperties"] = map[string]any{"type": "string"}
	}
	return s
}

// genLeaf is a property's schema.
func genLeaf(r *rand.Rand, depth int) map[string]any {
	switch r.IntN(9) {
	case 0, 1:
		s := map[string]any{"type": "string"}
		maybe(r, s, "minLength", float64(r.IntN(3)))
		maybe(r, s, "maxLength", float64(1+r.IntN(5)))
		if r.IntN(5) == 0 {
			s["pattern"] = "^a"
		}
		if r.IntN(3) == 0 {
			s["enum"] = []any{"a", "EUR", "USD"}[:1+r.IntN(3)]
		}
		return s
	case 2:
		s := map[string]any{"type": "integer"}
		maybe(r, s, "minimum", float64(r.IntN(3)))
		maybe(r, s, "maximum", float64(3+r.IntN(8)))
		if r.IntN(4) == 0 {
			s["enum"] = []any{1.0, 2.0, 5.0}
		}
		return s
	case 3:
		s := map[string]any{"type": "number"}
		maybe(r, s, "exclusiveMinimum", 0.0)
		maybe(r, s, "multipleOf", 0.5)
		return s
	case 4:
		return map[string]any{"type": "boolean"}
	case 5:
		return map[string]any{"type": []any{"string", "null"}}
	case 6:
		s := map[string]any{"type": "array", "items": genLeaf(r, 0)}
		maybe(r, s, "minItems", 1.0)
		maybe(r, s, "maxItems", 3.0)
		if r.IntN(4) == 0 {
			s["uniqueItems"] = true
		}
		return s
	case 7:
		if depth > 0 {
			return genObject(r, depth)
		}
	}
	return map[string]any{}
}

func maybe(r *rand.Rand, s map[string]any, key string, v any) {
	if r.IntN(3) == 0 {
		s[key] = v
	}
}

// subschemas are every schema in s, s first.
func subschemas(s any) []map[string]any {
	m, ok := s.(map[string]any)
	if !ok {
		return nil
	}
	out := []map[string]any{m}
	if props, ok := m["properties"].(map[string]any); ok {
		for _, k := range slices.Sorted(maps.Keys(props)) {
			out = append(out, subschemas(props[k])...)
		}
	}
	out = append(out, subschemas(m["items"])...)
	return append(out, subschemas(m["additionalProperties"])...)
}

// mutate changes one keyword of one subschema of s, as a release might:
// each keyword Diff reads, added, removed or changed, and a few it does
// not read.
func mutate(r *rand.Rand, s any) {
	m := pick(r, subschemas(s))
	key := func(k string, v any) {
		if _, has := m[k]; has && r.IntN(2) == 0 {
			delete(m, k)
		} else {
			m[k] = v
		}
	}
	switch r.IntN(17) {
	case 0: // a name required, listed under properties or not
		req, _ := m["required"].([]any)
		if n := pick(r, names); !slices.Contains(req, any(n)) {
			m["required"] = append(req, n)
		}
	case 1:
		if req, _ := m["required"].([]any); len(req) > 0 {
			m["required"] = slices.Delete(slices.Clone(req), 0, 1)
		}
	case 2:
		key("const", pick(r, pool))
	case 3: // a value added to or removed from the enum, or a new enum
		e, _ := m["enum"].([]any)
		switch {
		case len(e) > 1 && r.IntN(2) == 0:
			m["enum"] = e[1:]
		case e != nil && r.IntN(3) == 0:
			delete(m, "enum")
		default:
			m["enum"] = append(slices.Clone(e), pick(r, pool))
		}
	case 4:
		key("type", pick(r, []any{"string", "integer", "number", "boolean", "null", "object", "array",
			[]any{"string", "null"}, []any{"integer", "string"}}))
	case 5:
		key(pick(r, []string{"minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"}), float64(r.IntN(4)))
	case 6:
		key(pick(r, []string{"maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"}), float64(1+r.IntN(10)))
	case 7:
		key("uniqueItems", r.IntN(2) == 0)
	case 8:
		key("pattern", pick(r, []any{"^a", "b", "^[A-Z]+$"}))
	case 9:
		key("format", pick(r, []any{"email", "date"}))
	case 10: // a property added, replaced or removed
		props, _ := m["properties"].(map[string]any)
		if props == nil {
			props = map[string]any{}
			m["properties"] = props
		}
		n := pick(r, names)
		if _, has := props[n]; has && r.IntN(2) == 0 {
			delete(props, n)
		} else {
			props[n] = genLeaf(r, 1)
		}
	case 11:
		key("additionalProperties", pick(r, []any{false, true, map[string]any{"type": "string"}, map[string]any{"type": "integer"}, map[string]any{}}))
	case 12:
		key("items", genLeaf(r, 0))
	case 13:
		key("multipleOf", pick(r, []any{0.5, 2.0, 3.0}))
	case 14: // words that constrain nothing
		switch k := pick(r, []string{"description", "title", "default", "examples"}); k {
		case "examples":
			key(k, []any{pick(r, pool)})
		case "default":
			key(k, pick(r, pool))
		default:
			key(k, pick(r, []string{"x", "y"}))
		}
	case 15: // keywords Diff does not read
		unread := map[string]any{
			"not":               map[string]any{"type": "null"},
			"anyOf":             []any{map[string]any{"type": "string"}, map[string]any{"minimum": 2.0}},
			"patternProperties": map[string]any{"^a": map[string]any{"type": "integer"}},
			"dependentRequired": map[string]any{"a": []any{"b"}},
			"propertyNames":     map[string]any{"maxLength": 1.0},
		}
		k := pick(r, slices.Sorted(maps.Keys(unread)))
		key(k, unread[k])
	case 16:
		key("unevaluatedProperties", false)
	}
}

// callGen makes calls for a pair of schemas: from the names and values
// either mentions, shaped after the old schema more often than not, so
// that many of them pass it.
type callGen struct {
	r      *rand.Rand
	names  []string
	values []any
}

func newCallGen(r *rand.Rand, schemas ...any) *callGen {
	g := &callGen{r: r, names: slices.Clone(names), values: slices.Clone(pool)}
	g.names = append(g.names, "z")
	for _, s := range schemas {
		for _, m := range subschemas(s) {
			if e, ok := m["enum"].([]any); ok {
				g.values = append(g.values, e...)
			}
			if c, ok := m["const"]; ok {
				g.values = append(g.values, c)
			}
		}
	}
	return g
}

// call is a call for schema s, as a validator reads it (numbers as
// json.Number).
func (g *callGen) call(s any) any {
	var v any
	if g.r.IntN(4) == 0 {
		v = g.any(2)
	} else {
		v = g.shaped(s, 3)
	}
	var buf bytes.Buffer
	_ = json.NewEncoder(&buf).Encode(v)
	out, err := jsonschema.UnmarshalJSON(&buf)
	if err != nil {
		panic(err)
	}
	return out
}

// shaped is a value that often passes s: an object with most of its
// properties (each shaped after its schema) and sometimes an extra one,
// an enum's or a const's value, an array of shaped items.
func (g *callGen) shaped(s any, depth int) any {
	m, _ := s.(map[string]any)
	if m == nil || depth == 0 || g.r.IntN(8) == 0 {
		return g.any(1)
	}
	if c, ok := m["const"]; ok && g.r.IntN(3) > 0 {
		return c
	}
	if e, ok := m["enum"].([]any); ok && len(e) > 0 && g.r.IntN(3) > 0 {
		return pick(g.r, e)
	}
	types := typeNames(m["type"])
	switch {
	case slices.Contains(types, "object") || m["properties"] != nil:
		obj := map[string]any{}
		props, _ := m["properties"].(map[string]any)
		for _, n := range slices.Sorted(maps.Keys(props)) {
			if g.r.IntN(4) > 0 {
				obj[n] = g.shaped(props[n], depth-1)
			}
		}
		if req, ok := m["required"].([]any); ok {
			for _, n := range req {
				if name, _ := n.(string); name != "" && obj[name] == nil {
					obj[name] = g.shaped(props[name], depth-1)
				}
			}
		}
		if g.r.IntN(3) == 0 {
			obj[pick(g.r, g.names)] = g.shaped(m["additionalProperties"], depth-1)
		}
		return obj
	case slices.Contains(types, "array"):
		var arr []any
		for range g.r.IntN(4) {
			arr = append(arr, g.shaped(m["items"], depth-1))
		}
		return arr
	}
	return g.scalar()
}

func typeNames(t any) []string {
	switch t := t.(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, x := range t {
			out = append(out, fmt.Sprint(x))
		}
		return out
	}
	return nil
}

// any is an arbitrary value.
func (g *callGen) any(depth int) any {
	switch n := g.r.IntN(8); {
	case depth > 0 && n == 0:
		var arr []any
		for range g.r.IntN(3) {
			arr = append(arr, g.any(depth-1))
		}
		return arr
	case depth > 0 && n == 1:
		obj := map[string]any{}
		for range g.r.IntN(3) {
			obj[pick(g.r, g.names)] = g.any(depth - 1)
		}
		return obj
	}
	return g.scalar()
}

func (g *callGen) scalar() any { return pick(g.r, g.values) }
