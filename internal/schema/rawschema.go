package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Hand-written schemas: a tool whose input is json.RawMessage (or a map)
// with a JSON Schema its author wrote ($defs, $ref, anyOf, if/then,
// const...). The schema is published as given, and every call is checked
// against it by a JSON Schema 2020-12 validator before the handler runs.

// rawSchema is the compiled hand-written schema of a Codec.
type rawSchema struct {
	compiled *jsonschema.Schema
}

var typeRawMessage = reflect.TypeFor[json.RawMessage]()

// CodecFromSchema returns a Codec whose Schema is doc, a JSON Schema
// (draft 2020-12 unless its $schema names another draft) for a tool's
// arguments, and whose Decode checks a call against doc before storing it
// into a *json.RawMessage, a *map[string]any or a *any. Its Type is
// json.RawMessage; its Fields are doc's top-level properties.
//
// doc's root must be an object schema ("type": "object"), as MCP requires
// of an input schema. Formats are asserted (a "format": "email" property
// refuses what is not an email address); references resolve within doc
// only: a $ref to another document is an error, never a download. It
// returns an error, and no Codec, when doc is not such a schema.
func CodecFromSchema(doc json.RawMessage) (*Codec, error) {
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
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(compact.Bytes()))
	if err != nil {
		return nil, fmt.Errorf("schema: CodecFromSchema: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	c.UseLoader(noLoader{})
	const url = "vurb:///input-schema.json"
	if err := c.AddResource(url, inst); err != nil {
		return nil, fmt.Errorf("schema: CodecFromSchema: %w", err)
	}
	compiled, err := c.Compile(url)
	if err != nil {
		return nil, fmt.Errorf("schema: CodecFromSchema: %w", err)
	}
	codec := &Codec{
		typ:    typeRawMessage,
		v:      defaultValidator(),
		schema: compact.Bytes(),
		raw:    &rawSchema{compiled: compiled},
		tree:   builtSchema{root: root, defs: map[string]*node{}},
	}
	codec.fields = rawFields(root)
	return codec, nil
}

// noLoader refuses every document but the schema itself: a hand-written
// schema must not make the server read files or the network.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("%s: references to other documents are not followed; put the definition in $defs", url)
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
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return single(fmt.Sprintf(msgs.Undecodable, err.Error()))
	}
	obj := inst.(map[string]any) // scanTop checked that it is an object
	_, skipped := obj[skip]
	if skip != "" && skipped {
		delete(obj, skip)
	}
	if err := r.compiled.Validate(inst); err != nil {
		var ve *jsonschema.ValidationError
		if !errors.As(err, &ve) {
			return single(fmt.Sprintf(msgs.Undecodable, err.Error()))
		}
		return &Error{Issues: rawIssues(ve, inst, msgs)}
	}
	if skip != "" && skipped {
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

// rawIssues turns a validation error into issues: one per failed keyword,
// at the JSON path of the value; the alternatives of a failed anyOf or
// oneOf are one issue, since satisfying any one of them is enough.
func rawIssues(ve *jsonschema.ValidationError, inst any, msgs *Messages) []Issue {
	var out []Issue
	limit := msgs.maxIssues()
	more := 0
	add := func(is Issue) {
		for _, o := range out {
			if o == is {
				return
			}
		}
		if len(out) >= limit {
			more++
			return
		}
		out = append(out, is)
	}
	var walk func(u *jsonschema.OutputUnit)
	walk = func(u *jsonschema.OutputUnit) {
		kw := u.KeywordLocation
		if strings.HasSuffix(kw, "/anyOf") || strings.HasSuffix(kw, "/oneOf") {
			var alts []string
			for i := range u.Errors {
				alts = append(alts, leafTexts(&u.Errors[i])...)
			}
			if len(alts) > 0 {
				add(Issue{Path: rawPath(inst, u.InstanceLocation), Message: "must satisfy one of: " + strings.Join(alts, "; or ")})
				return
			}
		}
		if len(u.Errors) == 0 {
			if u.Error != nil {
				add(Issue{Path: rawPath(inst, u.InstanceLocation), Message: u.Error.String()})
			}
			return
		}
		for i := range u.Errors {
			walk(&u.Errors[i])
		}
	}
	walk(ve.DetailedOutput())
	// By path, the object's own issues first: the validator's order
	// follows its maps.
	slices.SortStableFunc(out, func(a, b Issue) int { return strings.Compare(a.Path, b.Path) })
	if more > 0 {
		out = append(out, Issue{Message: fmt.Sprintf(msgs.MoreIssues, more)})
	}
	return out
}

// leafTexts are the messages of the failed keywords under u, each with its
// path when it has one.
func leafTexts(u *jsonschema.OutputUnit) []string {
	if len(u.Errors) == 0 {
		if u.Error == nil {
			return nil
		}
		return []string{u.Error.String()}
	}
	var out []string
	for i := range u.Errors {
		out = append(out, leafTexts(&u.Errors[i])...)
	}
	return out
}

// rawPath renders JSON pointer ptr into inst as this package writes paths:
// "items[3].name".
func rawPath(inst any, ptr string) string {
	if ptr == "" {
		return ""
	}
	var b strings.Builder
	cur := inst
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch c := cur.(type) {
		case []any:
			b.WriteString("[" + tok + "]")
			if i, err := strconv.Atoi(tok); err == nil && i >= 0 && i < len(c) {
				cur = c[i]
			}
		case map[string]any:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(tok)
			cur = c[tok]
		default:
			b.WriteString("." + tok)
		}
	}
	return b.String()
}
