package toon

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"strconv"
	"strings"
)

// jnode is an ordered JSON tree built with encoding/json's tokenizer, kept
// apart from the package's own model so that tests judge the package with
// code it does not share.
type jnode struct {
	kind string // null, bool, number, string, array, object
	b    bool
	s    string // string, or number literal as written
	keys []string
	kids []jnode
}

func parseTree(data []byte) (jnode, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	n, err := readTree(dec)
	if err != nil {
		return jnode{}, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return jnode{}, fmt.Errorf("trailing data after JSON value: %v", err)
	}
	return n, nil
}

func readTree(dec *json.Decoder) (jnode, error) {
	tok, err := dec.Token()
	if err != nil {
		return jnode{}, err
	}
	switch t := tok.(type) {
	case nil:
		return jnode{kind: "null"}, nil
	case bool:
		return jnode{kind: "bool", b: t}, nil
	case string:
		return jnode{kind: "string", s: t}, nil
	case json.Number:
		return jnode{kind: "number", s: string(t)}, nil
	}
	if tok == json.Delim('[') {
		n := jnode{kind: "array"}
		for dec.More() {
			k, err := readTree(dec)
			if err != nil {
				return jnode{}, err
			}
			n.kids = append(n.kids, k)
		}
		_, err := dec.Token()
		return n, err
	}
	n := jnode{kind: "object"}
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return jnode{}, err
		}
		k, err := readTree(dec)
		if err != nil {
			return jnode{}, err
		}
		key := kt.(string)
		if i := indexOf(n.keys, key); i >= 0 { // last wins, first position
			n.kids[i] = k
			continue
		}
		n.keys = append(n.keys, key)
		n.kids = append(n.kids, k)
	}
	_, err = dec.Token()
	return n, err
}

func indexOf(keys []string, k string) int {
	for i, x := range keys {
		if x == k {
			return i
		}
	}
	return -1
}

// equal is JSON-model equality (spec §2): ordered keys, numbers by value.
func (a jnode) equal(b jnode) bool {
	if a.kind != b.kind {
		return false
	}
	switch a.kind {
	case "null":
		return true
	case "bool":
		return a.b == b.b
	case "string":
		return a.s == b.s
	case "number":
		return numbersEqual(a.s, b.s)
	}
	if len(a.kids) != len(b.kids) {
		return false
	}
	for i := range a.kids {
		if a.kind == "object" && a.keys[i] != b.keys[i] {
			return false
		}
		if !a.kids[i].equal(b.kids[i]) {
			return false
		}
	}
	return true
}

// numbersEqual compares by exact value with math/big, falling back to the
// canonical text only for exponents too large to expand.
func numbersEqual(x, y string) bool {
	if hugeExponent(x) || hugeExponent(y) {
		return canonicalNumber(x) == canonicalNumber(y)
	}
	rx, okx := new(big.Rat).SetString(x)
	ry, oky := new(big.Rat).SetString(y)
	return okx && oky && rx.Cmp(ry) == 0
}

func hugeExponent(s string) bool {
	i := strings.IndexAny(s, "eE")
	if i < 0 {
		return false
	}
	e, err := strconv.Atoi(s[i+1:])
	return err != nil || e > 400 || e < -400
}

// sameJSON parses both texts and compares them as JSON values.
func sameJSON(a, b []byte) (bool, error) {
	ta, err := parseTree(a)
	if err != nil {
		return false, fmt.Errorf("first: %w", err)
	}
	tb, err := parseTree(b)
	if err != nil {
		return false, fmt.Errorf("second: %w", err)
	}
	return ta.equal(tb), nil
}

// tabularOrder returns n with the one reordering TOON makes by design:
// the rows of a tabular array share the first row's key order (spec §9.3),
// so the objects of an array that qualifies take that order.
func (n jnode) tabularOrder() jnode {
	for i := range n.kids {
		n.kids[i] = n.kids[i].tabularOrder()
	}
	if n.kind != "array" || len(n.kids) == 0 {
		return n
	}
	first := n.kids[0]
	for _, row := range n.kids {
		if row.kind != "object" || len(row.keys) == 0 || len(row.keys) != len(first.keys) {
			return n
		}
		for i, k := range row.keys {
			if indexOf(first.keys, k) < 0 || row.kids[i].kind == "array" || row.kids[i].kind == "object" {
				return n
			}
		}
	}
	for r, row := range n.kids {
		sorted := jnode{kind: "object", keys: first.keys}
		for _, k := range first.keys {
			sorted.kids = append(sorted.kids, row.kids[indexOf(row.keys, k)])
		}
		n.kids[r] = sorted
	}
	return n
}

// sameAfterTOON compares a JSON input with what came back from TOON,
// allowing only the tabular key reordering.
func sameAfterTOON(in, out []byte) (bool, error) {
	ta, err := parseTree(in)
	if err != nil {
		return false, err
	}
	tb, err := parseTree(out)
	if err != nil {
		return false, err
	}
	return ta.tabularOrder().equal(tb), nil
}
