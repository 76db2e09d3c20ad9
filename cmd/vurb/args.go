package main

import (
	"encoding/json"
	"slices"
	"strings"
)

// arguments are a tool's arguments as the command line gives them.
type arguments struct {
	values map[string]any
	// loose are the keys given as key=value, whose values are strings
	// until the tool's input schema says what they are (typed).
	loose []string
}

// parseArguments reads a tool's arguments: one JSON object, or pairs
// key=value and key:=json, as httpie takes them. key:=json is JSON;
// key=value is a string until typed reads it by the tool's schema.
func parseArguments(args []string) (arguments, error) {
	a := arguments{values: map[string]any{}}
	if len(args) == 1 && strings.HasPrefix(strings.TrimSpace(args[0]), "{") {
		if err := json.Unmarshal([]byte(args[0]), &a.values); err != nil {
			return a, usagef("the arguments are not a JSON object: %v", err)
		}
		return a, nil
	}
	for _, arg := range args {
		if k, raw, ok := strings.Cut(arg, ":="); ok && !strings.Contains(k, "=") {
			var v any
			if err := json.Unmarshal([]byte(raw), &v); err != nil {
				return a, usagef("argument %s: %q is not JSON (use %s=%s for a string)", k, raw, k, raw)
			}
			a.values[k] = v
			a.loose = slices.DeleteFunc(a.loose, func(l string) bool { return l == k })
			continue
		}
		k, v, ok := strings.Cut(arg, "=")
		if !ok || k == "" {
			return a, usagef("argument %q is not key=value, key:=json or a JSON object", arg)
		}
		a.values[k] = v
		if !slices.Contains(a.loose, k) {
			a.loose = append(a.loose, k)
		}
	}
	return a, nil
}

// typed returns the values with each key=value read by the tool's input
// schema, as the MCP Inspector reads its form: a value whose property the
// schema types as an integer, number, boolean, null, array or object is
// read as JSON when it is JSON of that type (limit=2 sends 2); every other
// value, a string property's above all, stays the string as typed
// (id=007 sends "007"). A nil schema (a tool the server does not list)
// leaves them all strings.
func (a arguments) typed(schema map[string]any) map[string]any {
	if schema == nil {
		return a.values
	}
	for _, k := range a.loose {
		if raw, ok := a.values[k].(string); ok {
			a.values[k] = typedValue(raw, jsonTypes(schema, propertySchema(schema, k), 0))
		}
	}
	return a.values
}

// typedValue is raw, given as key=value, read as a property of the JSON
// types kinds: JSON of one of them when they do not include string and raw
// is such JSON, raw itself otherwise. A value that is not (limit=ten)
// stays the string it is, for the server to refuse in its own words.
// Numbers keep their digits (json.Number): an id past 2^53 is not
// rounded.
func typedValue(raw string, kinds map[string]bool) any {
	if len(kinds) == 0 || kinds["string"] {
		return raw
	}
	if !json.Valid([]byte(raw)) {
		return raw
	}
	dec := json.NewDecoder(strings.NewReader(raw))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return raw
	}
	if kinds[jsonType(v)] || jsonType(v) == "number" && kinds["integer"] {
		return v
	}
	return raw
}

// jsonType is the JSON Schema type of a decoded value (numbers are
// "number", whole or not).
func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number, float64:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	}
	return "object"
}

// maxHops bounds how deep jsonTypes goes through anyOf, oneOf and $ref:
// a server's schema may loop.
const maxHops = 8

// jsonTypes is the set of JSON types s allows, as far as its type, enum
// and const, and its anyOf and oneOf branches say (root holds the
// definitions its $refs point to); empty when they say nothing.
func jsonTypes(root, s map[string]any, hops int) map[string]bool {
	kinds := map[string]bool{}
	s = resolve(root, s)
	if s == nil || hops > maxHops {
		return kinds
	}
	switch t := s["type"].(type) {
	case string:
		kinds[t] = true
	case []any:
		for _, t := range t {
			if t, ok := t.(string); ok {
				kinds[t] = true
			}
		}
	}
	if c, ok := s["const"]; ok {
		kinds[jsonType(c)] = true
	}
	for _, v := range asList(s["enum"]) {
		kinds[jsonType(v)] = true
	}
	for _, branch := range append(asList(s["anyOf"]), asList(s["oneOf"])...) {
		if b, ok := branch.(map[string]any); ok {
			for k := range jsonTypes(root, b, hops+1) {
				kinds[k] = true
			}
		}
	}
	return kinds
}

// propertySchema is the schema root gives property key: its entry in
// properties, else additionalProperties when that is a schema; nil when
// root says nothing of it.
func propertySchema(root map[string]any, key string) map[string]any {
	if props, ok := root["properties"].(map[string]any); ok {
		if prop, ok := props[key].(map[string]any); ok {
			return prop
		}
	}
	prop, _ := root["additionalProperties"].(map[string]any)
	return prop
}

// resolve follows s's $ref when it points into root's $defs or
// definitions ("#/$defs/Name"), at most maxHops times; any other
// reference is left as it is.
func resolve(root, s map[string]any) map[string]any {
	for range maxHops {
		ref, ok := s["$ref"].(string)
		if !ok {
			return s
		}
		var next map[string]any
		for _, defs := range []string{"$defs", "definitions"} {
			if name, ok := strings.CutPrefix(ref, "#/"+defs+"/"); ok {
				m, _ := root[defs].(map[string]any)
				next, _ = m[name].(map[string]any)
			}
		}
		if next == nil {
			return s
		}
		s = next
	}
	return s
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}
