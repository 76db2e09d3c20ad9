package vurb_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/presenter"
	"github.com/vurb-go/vurb/vurbtest"
)

// Property tests over random nested values. The leak zoo's types hold
// secrets in every field a tag or a presenter redacts or omits (strings
// holding "SECRET", numbers from 700,000,000 up); the filler writes no
// such value anywhere else. Whatever the value, the format, the path (in
// process, a go-sdk client), nothing secret is in the answer, and the
// structured result validates against the listed outputSchema. The plain
// zoo has no redaction: presented or not, its text is what encoding/json
// writes, byte for byte.

type zLeaf struct {
	S     string          `json:"s"`
	N     int             `json:"n,omitempty"`
	F     float64         `json:"f"`
	B     bool            `json:"b,string"`
	Q     int64           `json:"q,string"`
	QS    string          `json:"qs,string,omitempty"`
	P     *string         `json:"p"`
	T     time.Time       `json:"t"`
	Z     time.Time       `json:"z,omitzero"`
	Raw   json.RawMessage `json:"raw,omitempty"`
	Bytes []byte          `json:"bytes"`
	M     ptrMarsh        `json:"m"`
	Skip  string          `json:"-"`
	_     int
}

// ptrMarsh marshals itself through a pointer receiver: encoding/json
// calls it only where the value is addressable.
type ptrMarsh struct{ V int }

func (p *ptrMarsh) MarshalJSON() ([]byte, error) {
	return []byte(`{"via":"pointer","v":` + strconv.Itoa(p.V) + `}`), nil
}

type zBase struct {
	E       string `json:"e"`
	ESecret string `json:"e_secret" redact:"true"`
}

type zinner struct {
	I string `json:"i"`
}

type zPtrEmb struct {
	PE string `json:"pe"`
}

type zCard struct {
	Holder string `json:"holder"`
	Number string `json:"number"`
	CVV    int    `json:"cvv"`
}

type zNode struct {
	zBase
	zinner
	*zPtrEmb
	ID     string            `json:"id"`
	Leaf   zLeaf             `json:"leaf"`
	Leaves []zLeaf           `json:"leaves"`
	Arr    [2]zLeaf          `json:"arr"`
	Map    map[string]*zNode `json:"map,omitempty"`
	IntMap map[int]zLeaf     `json:"int_map"`
	Any    any               `json:"any"`
	Kids   []*zNode          `json:"kids"`
	Secret string            `json:"secret" redact:"true"`
	Hidden []string          `json:"hidden" redact:"omit"`
	Num    *int              `json:"num,omitempty" redact:"true"`
	Card   zCard             `json:"card"`
	Cards  []zCard           `json:"cards"`
}

// The plain zoo: the same shapes, nothing redacted.
type eNode struct {
	zinner
	*zPtrEmb
	ID     string            `json:"id"`
	Leaf   zLeaf             `json:"leaf"`
	Leaves []zLeaf           `json:"leaves"`
	Arr    [2]zLeaf          `json:"arr"`
	Map    map[string]*eNode `json:"map,omitempty"`
	IntMap map[int]zLeaf     `json:"int_map"`
	Any    any               `json:"any"`
	Kids   []*eNode          `json:"kids"`
	Card   eCard             `json:"card"`
	// Options on a struct vurb writes itself, not through encoding/json.
	When  time.Time `json:"when,omitzero"`
	Count int       `json:"count,omitempty"`
	Flag  bool      `json:"flag,string"`
	Name  string    `json:"name,string,omitempty"`
	Opt   *int      `json:"opt,string"`
	M     ptrMarsh  `json:"m"`
	Tags  []string  `json:"tags,omitempty"`
	ZV    zeroByVal `json:"zv,omitzero"`
	ZP    zeroByPtr `json:"zp,omitzero"`
	Empty struct{}  `json:"empty,omitempty"`
}

// zeroByVal and zeroByPtr say when they are zero, by a value and by a
// pointer receiver: omitzero asks them.
type zeroByVal struct{ N int }

func (z zeroByVal) IsZero() bool { return z.N%2 == 0 }

type zeroByPtr struct{ N int }

func (z *zeroByPtr) IsZero() bool { return z.N%3 == 0 }

type eCard struct {
	Holder string    `json:"holder"`
	Number string    `json:"number,omitempty"`
	Amount float64   `json:"amount"`
	Ratio  float32   `json:"ratio"`
	Level  eLevel    `json:"level"`
	Code   uint16    `json:"code"`
	Ok     bool      `json:"ok"`
	Kind   eKind     `json:"kind"`
	At     time.Time `json:"at"`
}

// eLevel and eKind are named scalars; eKind marshals itself as text.
type eLevel int8

type eKind string

func (k eKind) MarshalText() ([]byte, error) { return []byte("kind:" + string(k)), nil }

// filler makes random values. secret marks what it fills as what the
// answer must never hold.
type filler struct {
	r       *rand.Rand
	secrets int
	plain   bool // the plain zoo
}

const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789 <>&\"\\/\n\téü€😀-_:.,[]{}|"

func (f *filler) text(secret bool) string {
	if secret {
		f.secrets++
		return fmt.Sprintf("SECRET-%d", f.secrets)
	}
	var b strings.Builder
	runes := []rune(alphabet)
	for range f.r.IntN(12) {
		switch f.r.IntN(12) {
		case 0: // what encoding/json escapes or replaces beyond the alphabet
			b.WriteString([]string{"\xff", "\u2028", "\u2029", "\x00", "\x1f", "\b", "\f", "\r", "\x7f"}[f.r.IntN(9)])
		default:
			b.WriteRune(runes[f.r.IntN(len(runes))])
		}
	}
	return b.String()
}

func (f *filler) number(secret bool) int64 {
	if secret {
		f.secrets++
		return 700_000_000 + int64(f.secrets)
	}
	return f.r.Int64N(100_000) - 50_000
}

// redactedField reports whether the fixture redacts or omits field sf of
// the leak zoo (its tag, or the zCard presenter's Redact and Omit).
func redactedField(owner reflect.Type, sf reflect.StructField) bool {
	if _, ok := sf.Tag.Lookup("redact"); ok {
		return true
	}
	return owner == reflect.TypeFor[zCard]() && (sf.Name == "Number" || sf.Name == "CVV")
}

// fill sets v (settable) to a random value; depth bounds recursion.
func (f *filler) fill(v reflect.Value, depth int, secret bool) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(f.text(secret))
	case reflect.Int, reflect.Int64:
		v.SetInt(f.number(secret))
	case reflect.Int8:
		v.SetInt(f.r.Int64N(256) - 128)
	case reflect.Uint16:
		v.SetUint(f.r.Uint64N(1 << 16))
	case reflect.Float32, reflect.Float64:
		x := float64(f.number(secret)) / 8
		if !secret { // exponents encoding/json writes as such
			x *= []float64{1, 1, 1e-9, 1e22, 3e-7}[f.r.IntN(5)]
		}
		v.SetFloat(x)
	case reflect.Bool:
		v.SetBool(f.r.IntN(2) == 0)
	case reflect.Pointer:
		if depth <= 0 || f.r.IntN(4) == 0 {
			return // nil
		}
		p := reflect.New(v.Type().Elem())
		f.fill(p.Elem(), depth-1, secret)
		v.Set(p)
	case reflect.Slice:
		if v.Type() == reflect.TypeFor[json.RawMessage]() {
			if f.r.IntN(2) == 0 {
				v.SetBytes([]byte(`{"raw":[1,2,"x"]}`))
			}
			return
		}
		if depth <= 0 || f.r.IntN(5) == 0 {
			return // nil
		}
		n := f.r.IntN(4)
		s := reflect.MakeSlice(v.Type(), n, n)
		for i := range n {
			f.fill(s.Index(i), depth-1, secret)
		}
		v.Set(s)
	case reflect.Array:
		for i := range v.Len() {
			f.fill(v.Index(i), depth-1, secret)
		}
	case reflect.Map:
		if depth <= 0 || f.r.IntN(4) == 0 {
			return
		}
		m := reflect.MakeMap(v.Type())
		for range f.r.IntN(3) {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			f.fill(k, 0, false)
			f.fill(e, depth-1, secret)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.Interface:
		f.fillAny(v, depth, secret)
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			if f.r.IntN(3) > 0 {
				v.Set(reflect.ValueOf(time.Unix(f.r.Int64N(2e9), 0).UTC()))
			}
			return
		}
		for i := range v.NumField() {
			sf := v.Type().Field(i)
			if sf.Name == "_" {
				continue
			}
			fv := v.Field(i)
			if !fv.CanSet() {
				fv = reflect.NewAt(fv.Type(), unsafe.Pointer(fv.UnsafeAddr())).Elem()
			}
			f.fill(fv, depth, secret || !f.plain && redactedField(v.Type(), sf))
		}
	}
}

// fillAny puts a random dynamic value in an interface: presented types,
// plain ones, nothing.
func (f *filler) fillAny(v reflect.Value, depth int, secret bool) {
	var choices []reflect.Type
	if f.plain {
		choices = []reflect.Type{reflect.TypeFor[string](), reflect.TypeFor[zLeaf](), reflect.TypeFor[*eNode](),
			reflect.TypeFor[[]eCard](), reflect.TypeFor[map[string]any]()}
	} else {
		choices = []reflect.Type{reflect.TypeFor[string](), reflect.TypeFor[zLeaf](), reflect.TypeFor[*zNode](),
			reflect.TypeFor[zCard](), reflect.TypeFor[[]zCard](), reflect.TypeFor[map[string]any](), reflect.TypeFor[zBase]()}
	}
	i := f.r.IntN(len(choices) + 1)
	if i == len(choices) || depth <= 0 {
		return // nil
	}
	x := reflect.New(choices[i]).Elem()
	f.fill(x, depth-1, secret)
	v.Set(x)
}

// leakApp returns the zoo's root value through every kind of result.
func leakApp(root func() zNode, format vurb.ResultFormat, exp vurb.Exposition) *vurb.App {
	app := vurb.New(vurb.WithResultFormat(format), vurb.WithExposition(exp), vurb.WithPresenters(
		presenter.New[zCard]().Redact("number").Omit("cvv").Rules("cards are masked").Limit(2),
		presenter.New[zLeaf]().RulesFor(func(l zLeaf) []string {
			if l.N > 40_000 {
				return []string{"a leaf is large"}
			}
			return nil
		}),
	))
	vurb.Query(app, "zoo.node", func(context.Context, struct{}) (zNode, error) { return root(), nil })
	vurb.Query(app, "zoo.ptr", func(context.Context, struct{}) (*zNode, error) { n := root(); return &n, nil })
	vurb.Query(app, "zoo.list", func(context.Context, struct{}) ([]zNode, error) { return []zNode{root(), root()}, nil })
	vurb.Query(app, "zoo.any", func(context.Context, struct{}) (any, error) { return root(), nil })
	vurb.Query(app, "zoo.map", func(context.Context, struct{}) (map[string]zNode, error) {
		return map[string]zNode{"a": root()}, nil
	}).Task()
	return app
}

// secretNumber matches the numbers the filler writes in redacted fields,
// whole: every other integer it writes has at most 5 digits, and the
// digits of other floats follow a digit or a point.
var secretNumber = regexp.MustCompile(`(^|[^0-9.])7000\d{5}([^0-9.e]|$)`)

var zooCalls = []string{"zoo_node", "zoo_ptr", "zoo_list", "zoo_any", "zoo_map"}

// TestRedactionNeverLeaks is the property: for random nested values, in
// JSON, TOON and a custom format, in every kind of result, the answer
// holds no redacted value, and its structured content validates against
// the tool's outputSchema.
func TestRedactionNeverLeaks(t *testing.T) {
	dump := vurb.NewResultFormat("dump", func(v any) (string, error) { return fmt.Sprintf("%#v", v), nil })
	formats := map[string]vurb.ResultFormat{"json": vurb.JSONResults(), "toon": vurb.TOONResults(), "dump": dump}
	for name, format := range formats {
		t.Run(name, func(t *testing.T) {
			seed := uint64(time.Now().UnixNano())
			t.Logf("seed %d", seed)
			f := &filler{r: rand.New(rand.NewPCG(seed, 32))}
			var root zNode
			app := leakApp(func() zNode { return root }, format, vurb.Flat)
			schemas := map[string]func([]byte) error{}
			for _, tool := range app.Tools() {
				if tool.OutputSchema != nil {
					schemas[tool.Name] = schemaCheck(t, tool.OutputSchema)
				}
			}
			for i := range 300 {
				root = zNode{}
				f.fill(reflect.ValueOf(&root).Elem(), 4, false)
				name := zooCalls[i%len(zooCalls)]
				res := callOK(t, app, name, `{}`)
				wire := wireJSON(t, res)
				noSecret(t, name, wire)
				if n := secretNumber.FindString(wire); n != "" {
					t.Fatalf("%s leaks the redacted number %s", name, n)
				}
				if valid := schemas[name]; valid != nil {
					if err := valid(structured(t, res)); err != nil {
						t.Fatalf("%s: the structured content does not validate against its outputSchema: %v", name, err)
					}
				}
			}
		})
	}
}

// TestRedactionNeverLeaksToClients: the property through a go-sdk client,
// both generations, both expositions, and a task's result.
func TestRedactionNeverLeaksToClients(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	f := &filler{r: rand.New(rand.NewPCG(seed, 64))}
	var root zNode
	for _, protocol := range []string{vurbtest.DefaultProtocol, vurbtest.Sessionless} {
		for _, exp := range []vurb.Exposition{vurb.Flat, vurb.Grouped} {
			c := vurbtest.New(t, leakApp(func() zNode { return root }, vurb.TOONResults(), exp), vurbtest.Protocol(protocol), vurbtest.OverHTTP())
			for i := range 40 {
				root = zNode{}
				f.fill(reflect.ValueOf(&root).Elem(), 4, false)
				name, args := zooCalls[i%len(zooCalls)], map[string]any{}
				if exp == vurb.Grouped {
					name, args = "zoo", map[string]any{"action": strings.TrimPrefix(zooCalls[i%len(zooCalls)], "zoo_")}
				}
				res, err := c.CallResult(name, args)
				is.New(t).NoErr(err)
				noSecret(t, protocol+" "+exp.String()+" "+name, wireJSON(t, res))
			}
		}
	}
	// A task's result, 2026-07-28 over HTTP.
	h := leakApp(func() zNode { return root }, vurb.JSONResults(), vurb.Flat).HTTPHandler()
	for range 10 {
		root = zNode{}
		f.fill(reflect.ValueOf(&root).Elem(), 4, false)
		done := waitTask(t, h, startTask(t, h, "zoo_map"), "completed")
		data, _ := json.Marshal(done)
		noSecret(t, "a task's result", string(data))
	}
}

// TestPresentedJSONIsEncodingJSON: where nothing is redacted or cut, the
// presented text is what encoding/json writes, byte for byte: pointers,
// embedded structs (unexported, and nil embedded pointers), omitempty,
// omitzero, ",string", marshalers on pointer receivers, maps with int
// keys, interfaces, HTML escapes.
func TestPresentedJSONIsEncodingJSON(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	f := &filler{r: rand.New(rand.NewPCG(seed, 16)), plain: true}
	var root eNode
	app := vurb.New(vurb.WithPresenters(presenter.New[eNode]().Rules("nodes are trees"), presenter.New[eCard]().Rules("cards")))
	vurb.Query(app, "plain.node", func(context.Context, struct{}) (eNode, error) { return root, nil })
	vurb.Query(app, "plain.ptr", func(context.Context, struct{}) (*eNode, error) { return &root, nil })
	vurb.Query(app, "plain.list", func(context.Context, struct{}) ([]eNode, error) { return []eNode{root}, nil })
	vurb.Query(app, "plain.any", func(context.Context, struct{}) (any, error) { return root, nil })
	for i := range 500 {
		root = eNode{}
		f.fill(reflect.ValueOf(&root).Elem(), 4, false)
		for _, c := range []struct {
			name string
			v    any
		}{{"plain_node", root}, {"plain_ptr", &root}, {"plain_list", []eNode{root}}, {"plain_any", any(root)}} {
			want, err := json.Marshal(c.v)
			if err != nil {
				t.Fatal(err)
			}
			res := callOK(t, app, c.name, `{}`)
			if got := textOf(res, 0); got != string(want) {
				at := 0
				for at < min(len(got), len(want)) && got[at] == want[at] {
					at++
				}
				from := max(0, at-80)
				t.Fatalf("value %d, %s: from byte %d, presented\n…%s\nencoding/json\n…%s", i, c.name, at,
					got[from:min(len(got), at+80)], want[from:min(len(want), at+80)])
			}
			if _, ok := presenter.Read(res); !ok {
				t.Fatalf("%s: no presentation", c.name)
			}
		}
	}
}
