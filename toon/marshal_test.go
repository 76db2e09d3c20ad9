package toon

import (
	"encoding/json"
	"errors"
	"math"
	"math/big"
	"net/netip"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
)

type address struct {
	Street string `json:"street"`
	City   string `json:"city,omitempty"`
}

type Base struct {
	ID      int    `json:"id"`
	Created string `json:"created,omitempty"`
}

type auditInfo struct {
	By string `json:"by"`
}

type user struct {
	Base
	*auditInfo
	Name   string `json:"name"`
	Email  string `json:"email,omitempty"`
	Age    int    `json:"age,string"`
	Admin  bool   `json:"admin,omitzero"`
	Secret string `json:"-"`
	//lint:ignore SA5008 a field named "-" is what this case tests
	Dash     string          `json:"-,"`
	Tags     []string        `json:"tags"`
	Address  *address        `json:"address,omitempty"`
	Meta     map[string]any  `json:"meta,omitempty"`
	Scores   map[int]float64 `json:"scores,omitempty"`
	Raw      json.RawMessage `json:"raw,omitempty"`
	When     time.Time       `json:"when,omitzero"`
	Blob     []byte          `json:"blob,omitempty"`
	IP       netip.Addr      `json:"ip,omitzero"`
	Untagged string
	private  string
	Labels   map[string]string `json:"labels"`
}

func TestMarshalStruct(t *testing.T) {
	is := is.New(t)
	u := user{
		Base:     Base{ID: 7},
		Name:     "Ada Lovelace",
		Age:      36,
		Secret:   "hidden",
		Dash:     "dash",
		Tags:     []string{"math", "poetry, science"},
		Address:  &address{Street: "1 Main St"},
		Meta:     map[string]any{"z": 1, "a": []any{1, "x"}},
		Scores:   map[int]float64{10: 1.5, 2: math.NaN()},
		Raw:      json.RawMessage(`{"b":1,"a":2}`),
		When:     time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC),
		Blob:     []byte("hi"),
		IP:       netip.MustParseAddr("10.0.0.1"),
		Untagged: "u",
		private:  "p",
	}
	out, err := Marshal(u)
	is.NoErr(err)
	want := strings.Join([]string{
		"id: 7",
		"name: Ada Lovelace",
		`age: "36"`,
		`"-": dash`,
		`tags[2]: math,"poetry, science"`,
		"address:",
		"  street: 1 Main St",
		"meta:",
		"  a[2]: 1,x",
		"  z: 1",
		"scores:",
		`  "10": 1.5`,
		`  "2": null`,
		"raw:",
		"  b: 1",
		"  a: 2",
		`when: "2025-01-02T03:04:05Z"`,
		"blob: aGk=",
		"ip: 10.0.0.1",
		"Untagged: u",
		"labels: null",
	}, "\n")
	is.Equal(string(out), want)
}

func TestMarshalMatchesJSON(t *testing.T) {
	type inner struct {
		A int     `json:"a"`
		B float32 `json:"b"`
	}
	type shadow struct {
		inner
		A string `json:"a"` // hides inner.A
	}
	values := []any{
		nil,
		true,
		"",
		"hello world",
		"-dash",
		42,
		int8(-8),
		uint64(math.MaxUint64),
		3.25,
		float32(0.1),
		1e-7,
		1e21,
		123456789.125,
		json.Number("1.50"),
		[]int{},
		[]int(nil),
		[0]int{},
		[3]int{1, 2, 3},
		map[string]int{},
		map[string]int(nil),
		[]inner{{1, 1.5}, {2, 2.5}},
		[]any{inner{1, 1}, map[string]int{"a": 1, "b": 2}},
		shadow{inner: inner{A: 1, B: 2}, A: "x"},
		[]*inner{nil, {A: 3}},
		map[string][]map[string]int{"x": {{"a": 1}, {"a": 2}}},
		struct {
			P *int `json:"p"`
			Q any  `json:"q"`
		}{},
		big.NewInt(0).Lsh(big.NewInt(1), 100),
		[]byte{},
		time.Duration(90),
		struct{ S []string }{S: []string{"a b", " lead", "tail ", "x:y"}},
		map[string]any{"<html>": "&amp;", "line\nbreak": "tab\t"},
	}
	for _, v := range values {
		js, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("json.Marshal(%#v): %v", v, err)
		}
		want, err := FromJSON(js)
		if err != nil {
			t.Fatalf("FromJSON(%s): %v", js, err)
		}
		got, err := Marshal(v)
		if err != nil {
			t.Fatalf("Marshal(%#v): %v", v, err)
		}
		if string(got) != string(want) {
			t.Errorf("Marshal(%#v):\n%s\nwant (via JSON %s):\n%s", v, got, js, want)
		}
	}
}

type celsius float64

func (c celsius) MarshalText() ([]byte, error) { return []byte("c" + json.Number("1").String()), nil }

//lint:ignore U1000 the field gives the type a value to point at
type ptrMarshaler struct{ n int }

func (p *ptrMarshaler) MarshalJSON() ([]byte, error) { return []byte(`{"n":1}`), nil }

type failing struct{}

func (failing) MarshalJSON() ([]byte, error) { return nil, errors.New("boom") }

type badJSON struct{}

func (badJSON) MarshalJSON() ([]byte, error) { return []byte(`{`), nil }

type node struct {
	Next *node `json:"next"`
}

func TestMarshalHooksAndErrors(t *testing.T) {
	is := is.New(t)

	out, err := Marshal(map[celsius]celsius{1: 2})
	is.NoErr(err)
	is.Equal(string(out), "c1: c1")

	// A pointer-receiver MarshalJSON applies when the value is addressable.
	out, err = Marshal(&struct{ P ptrMarshaler }{})
	is.NoErr(err)
	is.Equal(string(out), "P:\n  n: 1")
	out, err = Marshal(struct{ P ptrMarshaler }{})
	is.NoErr(err)
	is.Equal(string(out), "P:")

	_, err = Marshal(failing{})
	is.True(err != nil && strings.Contains(err.Error(), "boom"))
	_, err = Marshal(badJSON{})
	is.True(err != nil && strings.Contains(err.Error(), "invalid JSON"))

	_, err = Marshal(map[string]any{"c": make(chan int)})
	var ute *UnsupportedTypeError
	is.True(errors.As(err, &ute))
	is.Equal(err.Error(), "toon: unsupported type: chan int")

	_, err = Marshal(map[[2]int]int{{1, 2}: 3})
	is.True(errors.As(err, &ute))

	_, err = Marshal(json.Number("1e"))
	is.True(err != nil)

	n := &node{}
	n.Next = n
	_, err = Marshal(n)
	is.True(err != nil && strings.Contains(err.Error(), "pointer cycle"))

	out, err = Marshal([]float64{math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1)})
	is.NoErr(err)
	is.Equal(string(out), "[4]: null,null,null,0")
}

func TestMarshalOptions(t *testing.T) {
	is := is.New(t)
	v := map[string]any{"a": map[string]any{"b": map[string]any{"c": []int{1, 2}}}}
	out, err := Marshal(v, WithKeyFolding(KeyFoldingSafe), WithDelimiter(Pipe))
	is.NoErr(err)
	is.Equal(string(out), "a.b.c[2|]: 1|2")
	out, err = Marshal(v, WithIndent(4))
	is.NoErr(err)
	is.Equal(string(out), "a:\n    b:\n        c[2]: 1,2")
}

func TestOptionPanics(t *testing.T) {
	for name, f := range map[string]func(){
		"delimiter": func() { WithDelimiter(';') },
		"indent":    func() { WithIndent(0) },
		"flatten":   func() { WithFlattenDepth(-1) },
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Fatal("no panic")
				}
			}()
			f()
		})
	}
}

type zeroer interface{ IsZero() bool }

type span struct{ n int }

func (s *span) IsZero() bool { return s.n == 0 }

func TestMarshalOmitZero(t *testing.T) {
	is := is.New(t)
	v := struct {
		I  zeroer    `json:"i,omitzero"`
		P  *span     `json:"p,omitzero"`
		S  span      `json:"s,omitzero"`
		T  time.Time `json:"t,omitzero"`
		N  int       `json:"n,omitzero"`
		NP zeroer    `json:"np,omitzero"`
	}{NP: (*span)(nil)}
	out, err := Marshal(v)
	is.NoErr(err)
	is.Equal(string(out), "")
	v.P, v.N = &span{1}, 2
	out, err = Marshal(&v)
	is.NoErr(err)
	is.Equal(string(out), "p:\nn: 2")
}

type recursive struct {
	Name     string       `json:"name"`
	Children []*recursive `json:"children,omitempty"`
}

// TestMarshalConcurrent builds encoders for a recursive type from many
// goroutines at once; run with -race.
func TestMarshalConcurrent(t *testing.T) {
	tree := &recursive{Name: "root", Children: []*recursive{{Name: "a"}, {Name: "b", Children: []*recursive{{Name: "c"}}}}}
	want := "name: root\nchildren[2]:\n  - name: a\n  - name: b\n    children[1]{name}:\n      c"
	done := make(chan string)
	for range 8 {
		go func() {
			out, err := Marshal(tree)
			if err != nil {
				done <- err.Error()
				return
			}
			done <- string(out)
		}()
	}
	for range 8 {
		if got := <-done; got != want {
			t.Errorf("got:\n%s\nwant:\n%s", got, want)
		}
	}
}

type textPtr struct{ s string }

func (t *textPtr) MarshalText() ([]byte, error) { return []byte("T" + t.s), nil }

type embA struct {
	X int
	Y int
}

type embB struct {
	X int
	Z int `json:"z"`
}

type EmbC struct{ Y int }

func TestMarshalMoreMatchesJSON(t *testing.T) {
	var nilMarshaler *ptrMarshaler
	var nilText *textPtr
	values := []any{
		struct {
			embA
			embB // X is ambiguous at one depth: dropped
		}{embA{1, 2}, embB{3, 4}},
		struct {
			embA
			*EmbC // Y: embA.Y and EmbC.Y tie, dropped; nil pointer skipped
		}{},
		struct {
			embA
			EmbC
			Y string `json:"Y"` // shallower, wins
		}{Y: "top"},
		struct {
			M *ptrMarshaler `json:"m"`
			T *textPtr      `json:"t"`
			V textPtr       `json:"v"`
		}{nilMarshaler, nilText, textPtr{"v"}},
		&struct {
			V textPtr `json:"v"`
		}{textPtr{"addr"}},
		map[uint8]bool{2: true, 10: false},
		struct {
			F float64 `json:"f,string"`
			B bool    `json:"b,string"`
			S string  `json:"s,string"`
			P *int    `json:"p,string"`
		}{F: 1.5, B: true, S: `a"b`},
		[]byte(nil),
	}
	for _, v := range values {
		js, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("json.Marshal(%#v): %v", v, err)
		}
		want, err := FromJSON(js)
		if err != nil {
			t.Fatalf("FromJSON(%s): %v", js, err)
		}
		got, err := Marshal(v)
		if err != nil {
			t.Fatalf("Marshal(%#v): %v", v, err)
		}
		if string(got) != string(want) {
			t.Errorf("Marshal(%#v):\n%s\nwant (via JSON %s):\n%s", v, got, js, want)
		}
	}
}

func TestFromJSONDetails(t *testing.T) {
	is := is.New(t)
	// Duplicate keys: the last value wins, at the first key's place, also
	// in objects wide enough to be indexed.
	var b strings.Builder
	b.WriteString(`{"dup":1`)
	for i := range 12 {
		b.WriteString(`,"k` + strconv.Itoa(i) + `":` + strconv.Itoa(i))
	}
	b.WriteString(`,"dup":2,"k3":"x"}`)
	out, err := FromJSON([]byte(b.String()))
	is.NoErr(err)
	is.True(strings.HasPrefix(string(out), "dup: 2\nk0: 0\nk1: 1\nk2: 2\nk3: x\n"))

	for _, bad := range []string{``, `{`, `{"a":1}x`, `[1,]`, `{"a" 1}`, `tru`, `"\x01"`} {
		_, err := FromJSON([]byte(bad))
		is.True(err != nil && strings.HasPrefix(err.Error(), "toon: invalid JSON")) // bad input
	}
}
