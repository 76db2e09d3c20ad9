package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// node is a JSON object that remembers its key order. Schemas are built and
// rewritten as node trees at CodecFor time, then serialised once, so that the
// emitted JSON is deterministic and properties keep their declaration order
// (a model reads them top to bottom; Merge puts the discriminator first).
//
// Values are nil (null), bool, json.Number, string, []any and *node.
type node struct {
	keys []string
	vals []any
}

func (n *node) get(k string) (any, bool) {
	if i := slices.Index(n.keys, k); i >= 0 {
		return n.vals[i], true
	}
	return nil, false
}

func (n *node) has(k string) bool { return slices.Contains(n.keys, k) }

func (n *node) obj(k string) *node {
	v, _ := n.get(k)
	o, _ := v.(*node)
	return o
}

func (n *node) str(k string) string {
	v, _ := n.get(k)
	s, _ := v.(string)
	return s
}

// set replaces the value of k in place, or appends k.
func (n *node) set(k string, v any) {
	if i := slices.Index(n.keys, k); i >= 0 {
		n.vals[i] = v
		return
	}
	n.keys = append(n.keys, k)
	n.vals = append(n.vals, v)
}

func (n *node) del(k string) {
	if i := slices.Index(n.keys, k); i >= 0 {
		n.keys = slices.Delete(n.keys, i, i+1)
		n.vals = slices.Delete(n.vals, i, i+1)
	}
}

func (n *node) len() int { return len(n.keys) }

// clone copies the tree deeply, so that an inlined definition can be
// rewritten at one site without touching the others.
func (n *node) clone() *node {
	c := &node{keys: slices.Clone(n.keys), vals: make([]any, len(n.vals))}
	for i, v := range n.vals {
		c.vals[i] = cloneValue(v)
	}
	return c
}

func cloneValue(v any) any {
	switch v := v.(type) {
	case *node:
		return v.clone()
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = cloneValue(e)
		}
		return out
	}
	return v
}

// keywordOrder is the order in which schema keywords are written: identity
// and meaning first, then constraints, then children. Keywords not listed
// follow in their original order.
var keywordOrder = []string{
	"$ref", "type", "title", "description", "const", "enum", "default", "examples",
	"format", "pattern", "contentEncoding", "contentMediaType",
	"minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum", "multipleOf",
	"minLength", "maxLength",
	"minItems", "maxItems", "uniqueItems", "items",
	"minProperties", "maxProperties", "propertyNames",
	"properties", "required", "additionalProperties", "dependentRequired",
	"allOf", "anyOf", "oneOf", "not", "if", "then", "else",
	"readOnly", "writeOnly", "deprecated",
	"$defs",
}

var keywordRank = func() map[string]int {
	m := make(map[string]int, len(keywordOrder))
	for i, k := range keywordOrder {
		m[k] = i
	}
	return m
}()

// sortKeywords puts the keys of a schema object in keywordOrder.
func (n *node) sortKeywords() {
	idx := make([]int, len(n.keys))
	for i := range idx {
		idx[i] = i
	}
	rank := func(k string) int {
		if r, ok := keywordRank[k]; ok {
			return r
		}
		return len(keywordOrder)
	}
	slices.SortStableFunc(idx, func(a, b int) int { return rank(n.keys[a]) - rank(n.keys[b]) })
	keys := make([]string, len(idx))
	vals := make([]any, len(idx))
	for i, j := range idx {
		keys[i], vals[i] = n.keys[j], n.vals[j]
	}
	n.keys, n.vals = keys, vals
}

// marshal writes the tree as compact JSON.
func (n *node) marshal() []byte {
	var b bytes.Buffer
	writeValue(&b, n)
	return b.Bytes()
}

func writeValue(b *bytes.Buffer, v any) {
	switch v := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		if v {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case json.Number:
		b.WriteString(string(v))
	case string:
		writeString(b, v)
	case []any:
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			writeValue(b, e)
		}
		b.WriteByte(']')
	case *node:
		b.WriteByte('{')
		for i, k := range v.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(b, k)
			b.WriteByte(':')
			writeValue(b, v.vals[i])
		}
		b.WriteByte('}')
	default:
		panic(fmt.Sprintf("schema: internal error: cannot write %T", v))
	}
}

// writeString writes s as a JSON string without HTML escaping, so that
// descriptions such as "a < b" stay readable in tools/list.
func writeString(b *bytes.Buffer, s string) {
	var tmp bytes.Buffer
	enc := json.NewEncoder(&tmp)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	b.Write(bytes.TrimSuffix(tmp.Bytes(), []byte("\n")))
}

// parseNode reads JSON into a node tree, keeping key order and number text.
func parseNode(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := parseValue(dec)
	if err != nil {
		return nil, err
	}
	return v, nil
}

func parseValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			n := &node{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				v, err := parseValue(dec)
				if err != nil {
					return nil, err
				}
				n.set(kt.(string), v)
			}
			_, err := dec.Token()
			return n, err
		case '[':
			arr := []any{}
			for dec.More() {
				v, err := parseValue(dec)
				if err != nil {
					return nil, err
				}
				arr = append(arr, v)
			}
			_, err := dec.Token()
			return arr, err
		}
		return nil, fmt.Errorf("unexpected %v", t)
	default:
		return t, nil
	}
}

// mustParseNode parses JSON this package produced itself.
func mustParseNode(data []byte) *node {
	v, err := parseNode(data)
	if err != nil {
		panic("schema: internal error: " + err.Error())
	}
	n, ok := v.(*node)
	if !ok {
		panic("schema: internal error: not an object: " + strings.TrimSpace(string(data)))
	}
	return n
}
