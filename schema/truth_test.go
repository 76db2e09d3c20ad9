package schema

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestSchemaTruth is the proof of the package's promise: the schema tells
// the whole truth. For random tagged structs (nested structs, slices with
// dive, maps with key rules, pointers, embedded structs, every rule the
// bridge maps, conditional rules, defaults) and thousands of calls each
// (valid ones and mutations: dropped, null, empty, zero, integral float,
// fraction, wrong type, out of range, bad enum and format, unknown key,
// wrong case), an independent JSON Schema 2020-12 validator reading the
// published schema and Decode give the same verdict every time, and every
// accepted call decodes to exactly the values sent, defaults filled in
// where absent. What the generator leaves out, and why, is listed in
// truth_gen_test.go.
func TestSchemaTruth(t *testing.T) {
	structs, calls := 40, 1500
	if raceEnabled || testing.Short() {
		structs, calls = 20, 1000 // -race makes each call about five times dearer
	}
	var total, accepted int
	for i := range structs {
		a, n := checkTruth(t, uint64(i)+1, calls)
		total, accepted = total+n, accepted+a
	}
	t.Logf("%d structs, %d calls, %d accepted (%.0f%%), 100%% agreement", structs, total, accepted, 100*float64(accepted)/float64(total))
	if accepted < total/5 || accepted > total*4/5 {
		t.Fatalf("only %d of %d calls accepted: the generator no longer tests both sides", accepted, total)
	}
}

// FuzzSchemaTruth is TestSchemaTruth for one struct per seed.
func FuzzSchemaTruth(f *testing.F) {
	for seed := range uint64(8) {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, seed uint64) {
		checkTruth(t, seed, 200)
	})
}

// checkTruth generates the struct of seed and checks calls calls against
// it; it returns how many were accepted and made.
func checkTruth(t *testing.T, seed uint64, calls int) (accepted, made int) {
	t.Helper()
	g := &gen{r: rand.New(rand.NewPCG(seed, 0x5eed))}
	sg := g.structOf(0)
	v := NewValidator(nil)
	var c *Codec
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("seed %d: CodecFor panicked on a generated struct: %v\n%s", seed, r, sg.typ)
			}
		}()
		c = v.CodecFor(sg.typ)
	}()
	sch, err := compileAsserting(c.Schema())
	if err != nil {
		t.Fatalf("seed %d: the published schema does not compile: %v\n%s", seed, err, c.Schema())
	}
	for range calls {
		inst := sg.valid(g)
		if g.chance(0.85) {
			for range 1 + g.pick(2) {
				g.mutate(sg, inst)
			}
		}
		data, err := json.Marshal(inst)
		if err != nil {
			t.Fatal(err)
		}
		made++
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		schemaErr := sch.Validate(doc)
		dst := reflect.New(sg.typ)
		vurbErr := c.Decode(data, dst.Interface(), DecodeOptions{})
		if (schemaErr == nil) != (vurbErr == nil) {
			t.Fatalf("seed %d: disagreement on %s\nschema says: %v\nvurb says: %v\nstruct: %s\nschema: %s",
				seed, data, schemaErr, vurbErr, sg.typ, c.Schema())
		}
		if vurbErr != nil {
			continue
		}
		accepted++
		want := reflect.New(sg.typ)
		expected, _ := json.Marshal(sg.expect(inst))
		if err := json.Unmarshal(expected, want.Interface()); err != nil {
			t.Fatalf("seed %d: expected value %s does not decode: %v", seed, expected, err)
		}
		if !reflect.DeepEqual(dst.Elem().Interface(), want.Elem().Interface()) {
			t.Fatalf("seed %d: %s decoded to\n%#v, want (defaults filled in)\n%#v\nstruct: %s",
				seed, data, dst.Elem().Interface(), want.Elem().Interface(), sg.typ)
		}
	}
	return accepted, made
}

// expect is what a call's object must decode to: the values sent,
// integers in their canonical form, defaults where a field is absent.
func (sg *structGen) expect(obj map[string]any) map[string]any {
	out := map[string]any{}
	sg.expectInto(obj, out)
	return out
}

func (sg *structGen) expectInto(obj, out map[string]any) {
	for _, f := range sg.fields {
		if f.embedded != nil {
			f.embedded.expectInto(obj, out)
			continue
		}
		x, ok := obj[f.name]
		switch {
		case ok:
			out[f.name] = f.val.expect(x)
		case f.deflt != nil:
			out[f.name] = f.val.expect(f.deflt)
		}
	}
}

func (v *valueSpec) expect(x any) any {
	switch v.kind {
	case "int", "uint":
		return integerText(x.(json.Number))
	case "slice":
		in := x.([]any)
		out := make([]any, len(in))
		for i, e := range in {
			out[i] = v.elem.expect(e)
		}
		return out
	case "map":
		out := map[string]any{}
		for k, e := range x.(map[string]any) {
			out[k] = v.elem.expect(e)
		}
		return out
	case "object":
		return v.obj.expect(x.(map[string]any))
	}
	return x
}

// site is one value of a call that a mutation can change: a member of an
// object (with its field spec, when the object is a struct) or an element.
type site struct {
	obj  map[string]any
	arr  []any
	key  string
	idx  int
	spec *fieldSpec
}

func (s site) get() any {
	if s.obj != nil {
		return s.obj[s.key]
	}
	return s.arr[s.idx]
}

func (s site) set(v any) {
	if s.obj != nil {
		s.obj[s.key] = v
		return
	}
	s.arr[s.idx] = v
}

// sites lists the values of inst, and the objects in it, for mutations.
func sites(sg *structGen, inst map[string]any) (values []site, objects []map[string]any) {
	objects = append(objects, inst)
	var walk func(sg *structGen, obj map[string]any)
	var walkValue func(v *valueSpec, x any)
	walkValue = func(v *valueSpec, x any) {
		switch x := x.(type) {
		case []any:
			for i := range x {
				values = append(values, site{arr: x, idx: i})
				if v != nil && v.elem != nil {
					walkValue(v.elem, x[i])
				}
			}
		case map[string]any:
			objects = append(objects, x)
			if v != nil && v.kind == "object" {
				walk(v.obj, x)
				return
			}
			for k := range x {
				values = append(values, site{obj: x, key: k})
				if v != nil && v.elem != nil {
					walkValue(v.elem, x[k])
				}
			}
		}
	}
	walk = func(sg *structGen, obj map[string]any) {
		for _, f := range sg.fields {
			if f.embedded != nil {
				walk(f.embedded, obj)
				continue
			}
			values = append(values, site{obj: obj, key: f.name, spec: f})
			if x, ok := obj[f.name]; ok {
				walkValue(f.val, x)
			}
		}
	}
	walk(sg, inst)
	return values, objects
}

// mutate changes one thing in inst.
func (g *gen) mutate(sg *structGen, inst map[string]any) {
	values, objects := sites(sg, inst)
	s := values[g.pick(len(values))]
	cur := s.get()
	switch g.pick(12) {
	case 0: // dropped
		if s.obj != nil {
			delete(s.obj, s.key)
		}
	case 1: // null
		s.set(nil)
	case 2: // empty
		switch cur.(type) {
		case []any:
			s.set([]any{})
		case map[string]any:
			s.set(map[string]any{})
		default:
			s.set("")
		}
	case 3: // zero
		switch cur.(type) {
		case json.Number:
			s.set(json.Number([]string{"0", "-0", "0.0"}[g.pick(3)]))
		case bool:
			s.set(false)
		default:
			s.set("")
		}
	case 4: // integral float
		if n, ok := cur.(json.Number); ok && !strings.ContainsAny(string(n), ".eE") {
			forms := []string{string(n) + ".0", string(n) + "e0", string(n) + ".000"}
			if strings.HasSuffix(string(n), "00") {
				forms = append(forms, strings.TrimSuffix(string(n), "00")+"e2")
			}
			s.set(json.Number(forms[g.pick(len(forms))]))
		}
	case 5: // fraction
		if n, ok := cur.(json.Number); ok && !strings.ContainsAny(string(n), ".eE") {
			s.set(json.Number(string(n) + ".5"))
		}
	case 6: // wrong type
		s.set([]any{"x", json.Number("1"), true, []any{}, map[string]any{}}[g.pick(5)])
	case 7, 8: // out of range, bad enum or format, broken rule
		if s.spec != nil && s.spec.val != nil {
			if bad := s.spec.val.invalid(g); bad != nil {
				s.set(bad)
			}
		}
	case 9: // unknown key
		objects[g.pick(len(objects))]["zz_extra"] = json.Number("1")
	case 10: // wrong case
		if s.obj != nil && s.key != "" {
			if x, ok := s.obj[s.key]; ok {
				delete(s.obj, s.key)
				s.obj[strings.ToUpper(s.key[:1])+s.key[1:]] = x
			}
		}
	case 11: // another valid value: moves conditions and defaults around
		if s.spec != nil && s.spec.val != nil {
			s.set(s.spec.val.valid(g))
		} else if s.spec != nil && s.spec.embedded == nil && g.chance(0.5) {
			delete(s.obj, s.key)
		}
	}
}

// TestTruthGeneratorCoversTheRules: the structs TestSchemaTruth draws use
// every construct it claims to, so that 100% agreement means something.
func TestTruthGeneratorCoversTheRules(t *testing.T) {
	seen := map[string]bool{}
	for seed := range uint64(200) {
		g := &gen{r: rand.New(rand.NewPCG(seed+1, 0x5eed))}
		sg := g.structOf(0)
		for _, word := range []string{"dive", "keys", "default:", "required_", "excluded_", "omitempty", "unique", "oneof", "email",
			"uuid4", "ip", "hostname", "datetime", "startswith", "alpha", "ne=", "eq=", "gt=", "lt=", "len=", "*struct", "[]struct",
			"map[string]", "int8", "uint16", "float64"} {
			if strings.Contains(sg.typ.String(), word) {
				seen[word] = true
			}
		}
		for i := 0; i < sg.typ.NumField(); i++ {
			if sg.typ.Field(i).Anonymous {
				seen["embedded"] = true
			}
		}
	}
	var missing []string
	for _, word := range []string{"dive", "keys", "default:", "required_", "excluded_", "omitempty", "unique", "oneof", "email",
		"uuid4", "hostname", "datetime", "ne=", "eq=", "gt=", "len=", "*struct", "[]struct", "map[string]", "embedded"} {
		if !seen[word] {
			missing = append(missing, word)
		}
	}
	if len(missing) > 0 {
		t.Fatalf("the generator never drew: %s", strings.Join(missing, ", "))
	}
}

// compileAsserting compiles a published schema as a strict client would:
// draft 2020-12, formats asserted (vurb enforces them).
func compileAsserting(raw []byte) (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	if err := c.AddResource("mem://schema.json", doc); err != nil {
		return nil, err
	}
	return c.Compile("mem://schema.json")
}

func parseInstance(s string) (any, error) {
	return jsonschema.UnmarshalJSON(strings.NewReader(s))
}
