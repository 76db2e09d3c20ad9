package manifest

import (
	"bytes"
	"encoding/json"
	"slices"
)

// Canonical returns the canonical form of a JSON document: object keys
// sorted, no insignificant whitespace, no HTML escaping, numbers exactly as
// written. Two documents that mean the same (keys in another order,
// another indentation) have the same canonical form, which is what digests
// and comparisons read. It returns nil for nil or "null", and the input
// unchanged when it is not valid JSON.
func Canonical(doc json.RawMessage) json.RawMessage {
	if len(bytes.TrimSpace(doc)) == 0 {
		return nil
	}
	v, err := decode(doc)
	if err != nil {
		return slices.Clone(doc)
	}
	if v == nil {
		return nil
	}
	return encode(v)
}

// decode reads a JSON document into plain values, numbers as json.Number.
func decode(doc []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(doc))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// encode writes plain values canonically: encoding/json sorts map keys.
func encode(v any) json.RawMessage {
	var buf bytes.Buffer
	e := json.NewEncoder(&buf)
	e.SetEscapeHTML(false)
	if err := e.Encode(v); err != nil {
		return nil
	}
	return bytes.TrimRight(buf.Bytes(), "\n")
}

// canonicalValue is the canonical JSON of any value, or nil.
func canonicalValue(v any) json.RawMessage {
	if v == nil {
		return nil
	}
	data, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return Canonical(data)
}

// marshal writes v as indented JSON without HTML escaping, ending in a
// newline: the form of the files this package writes.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	e := json.NewEncoder(&buf)
	e.SetEscapeHTML(false)
	e.SetIndent("", "  ")
	if err := e.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
