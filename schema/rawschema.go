package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// Hand-written schemas: a tool whose input is json.RawMessage (or a map)
// with a JSON Schema its author wrote ($defs, $ref, anyOf, if/then,
// const...). The schema is published as given, and every call is checked
// against it by a Checker, a JSON Schema validator, before the handler
// runs. The validator lives in package jsonschema, so that only programs
// that use hand-written schemas link it.

// A Checker checks a call's arguments against one hand-written JSON
// Schema, for CodecFromSchema; package
// github.com/vurb-go/vurb/schema/jsonschema makes one from a document.
type Checker interface {
	// Check validates instance, a call's arguments as encoding/json decodes
	// them into an any with numbers as json.Number, and returns every
	// problem found, each at the path of its value as an Issue writes it
	// ("items[3].name"): none when instance is valid.
	Check(instance any) []Issue
}

// rawSchema is the checker of a hand-written schema's Codec.
type rawSchema struct {
	check Checker
}

var typeRawMessage = reflect.TypeFor[json.RawMessage]()

// CodecFromSchema returns a Codec whose Schema is doc, a JSON Schema for
// a tool's arguments, and whose Decode checks a call with check before
// storing it into a *json.RawMessage, a *map[string]any or a *any. Its
// Type is json.RawMessage; its Fields are doc's top-level properties.
// Most callers want jsonschema.Codec, which compiles doc into its check.
//
// doc's root must be an object schema ("type": "object"), as MCP requires
// of an input schema; Decode applies the limits and the well-formedness
// checks of every call (depth, duplicate keys, UTF-8) before check sees
// the arguments, and lists at most Messages.MaxIssues of its problems,
// ordered by path. It returns an error, and no Codec, when doc is not
// such a schema or check is nil.
func CodecFromSchema(doc json.RawMessage, check Checker) (*Codec, error) {
	if check == nil {
		return nil, errors.New("schema: CodecFromSchema: nil Checker")
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, doc); err != nil {
		return nil, fmt.Errorf("schema: CodecFromSchema: not JSON: %w", err)
	}
	v, err := parseNode(compact.Bytes())
	if err != nil {
		return nil, fmt.Errorf("schema: CodecFromSchema: %w", err)
	}
	root, ok := v.(*node)
	if !ok || root.str("type") != "object" {
		return nil, errors.New(`schema: CodecFromSchema: the root must be an object schema with "type": "object"`)
	}
	codec := &Codec{
		typ:    typeRawMessage,
		v:      defaultValidator(),
		schema: compact.Bytes(),
		raw:    &rawSchema{check: check},
		tree:   builtSchema{root: root, defs: map[string]*node{}},
	}
	codec.fields = rawFields(root)
	return codec, nil
}

// rawFields lists the top-level properties of a hand-written schema.
func rawFields(root *node) []Field {
	props := root.obj("properties")
	if props == nil {
		return nil
	}
	req, _ := root.vals0("required").([]any)
	defs := root.obj("$defs")
	out := make([]Field, 0, props.len())
	for i, name := range props.keys {
		p, _ := props.vals[i].(*node)
		if p == nil {
			p = &node{}
		}
		typ := p.str("type")
		if ref := p.str("$ref"); typ == "" && defs != nil && strings.HasPrefix(ref, "#/$defs/") {
			if d := defs.obj(strings.TrimPrefix(ref, "#/$defs/")); d != nil {
				typ = d.str("type")
			}
		}
		out = append(out, Field{
			Name:        name,
			Type:        typ,
			Required:    slices.Contains(req, any(name)),
			Description: p.str("description"),
			Schema:      p.marshal(),
		})
	}
	return out
}

// decode checks data against the schema and stores it into dst.
func (r *rawSchema) decode(data []byte, dst any, msgs *Messages, maxDepth int, skip string) error {
	switch dst.(type) {
	case *json.RawMessage, *map[string]any, *any:
	default:
		return fmt.Errorf("schema: Decode of a hand-written schema needs a *json.RawMessage, *map[string]any or *any, got %T", dst)
	}
	if isBlank(data) {
		data = emptyObject
	}
	// Well-formedness, depth, duplicate keys and UTF-8, as for any call.
	s := scanner{data: data, maxDepth: maxDepth, msgs: msgs}
	s.scanTop(anyShape)
	if s.fatal {
		return single(s.fatalMsg)
	}
	if len(s.issues) > 0 {
		return &Error{Issues: s.issues}
	}
	var inst any
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	if err := d.Decode(&inst); err != nil {
		return single(fmt.Sprintf(msgs.Undecodable, err.Error()))
	}
	obj := inst.(map[string]any) // scanTop checked that it is an object
	_, skipped := obj[skip]
	if skip != "" && skipped {
		delete(obj, skip)
	}
	if issues := r.check.Check(inst); len(issues) > 0 {
		return &Error{Issues: capIssues(issues, msgs)}
	}
	if skip != "" && skipped {
		var err error
		data, err = json.Marshal(obj) // the discriminator is not the action's to see
		if err != nil {
			return single(fmt.Sprintf(msgs.Undecodable, err.Error()))
		}
	}
	switch d := dst.(type) {
	case *json.RawMessage:
		*d = slices.Clone(data)
	case *map[string]any:
		*d = nil
		return json.Unmarshal(data, d)
	case *any:
		*d = nil
		return json.Unmarshal(data, d)
	}
	return nil
}

// capIssues orders a Checker's issues by path, the object's own first
// (a validator's order follows its maps), drops repeats, and keeps at most
// msgs' MaxIssues, with a last issue counting the rest.
func capIssues(issues []Issue, msgs *Messages) []Issue {
	out := make([]Issue, 0, len(issues))
	for _, is := range issues {
		if !slices.Contains(out, is) {
			out = append(out, is)
		}
	}
	slices.SortStableFunc(out, func(a, b Issue) int { return strings.Compare(a.Path, b.Path) })
	if limit := msgs.maxIssues(); len(out) > limit {
		more := len(out) - limit
		out = append(out[:limit], Issue{Message: fmt.Sprintf(msgs.MoreIssues, more)})
	}
	return out
}
