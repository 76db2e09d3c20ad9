// Package jsonschema checks tool arguments against a JSON Schema written
// by hand, for an action whose handler takes json.RawMessage or
// map[string]any: a team porting an existing tool catalogue keeps its
// schemas as they are ($defs, $ref, anyOf, if/then, const...).
//
// It is a package of its own so that only programs with hand-written
// schemas link a full JSON Schema validator
// (github.com/santhosh-tekuri/jsonschema).
package jsonschema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	santhosh "github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/vurb-go/vurb/schema"
)

// Codec returns the Codec of a hand-written schema: doc (draft 2020-12
// unless its $schema names another draft) is published as given,
// whitespace removed, and every call is checked against it before it is
// stored into a *json.RawMessage, a *map[string]any or a *any. A refusal
// is a *schema.Error with one Issue per failed keyword, at the path of the
// value; the alternatives of a failed anyOf or oneOf make one Issue.
//
// doc's root must be an object schema ("type": "object"), as MCP requires
// of an input schema. Formats are asserted (a "format": "email" property
// refuses what is not an email address), and references resolve within
// doc only: a $ref to another document is an error, never a download. It
// returns an error, and no Codec, when doc is not such a schema or does
// not compile.
func Codec(doc json.RawMessage) (*schema.Codec, error) {
	inst, err := santhosh.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return nil, fmt.Errorf("jsonschema: not JSON: %w", err)
	}
	c := santhosh.NewCompiler()
	c.DefaultDraft(santhosh.Draft2020)
	c.AssertFormat()
	c.UseLoader(noLoader{})
	const url = "vurb:///input-schema.json"
	if err := c.AddResource(url, inst); err != nil {
		return nil, fmt.Errorf("jsonschema: %w", err)
	}
	compiled, err := c.Compile(url)
	if err != nil {
		return nil, fmt.Errorf("jsonschema: %w", err)
	}
	return schema.CodecFromSchema(doc, checker{compiled})
}

// MustCodec is Codec for a schema known to be valid, as in a builder
// chain: it panics with Codec's error, as regexp.MustCompile does.
func MustCodec(doc json.RawMessage) *schema.Codec {
	c, err := Codec(doc)
	if err != nil {
		panic("jsonschema: MustCodec: " + err.Error())
	}
	return c
}

// checker is a compiled schema as a schema.Checker.
type checker struct{ compiled *santhosh.Schema }

// Check turns a validation error into issues: one per failed keyword, at
// the path of the value; the alternatives of a failed anyOf or oneOf are
// one issue, since satisfying any one of them is enough.
func (c checker) Check(inst any) []schema.Issue {
	err := c.compiled.Validate(inst)
	if err == nil {
		return nil
	}
	var ve *santhosh.ValidationError
	if !errors.As(err, &ve) {
		return []schema.Issue{{Message: err.Error()}}
	}
	var out []schema.Issue
	var walk func(u *santhosh.OutputUnit)
	walk = func(u *santhosh.OutputUnit) {
		kw := u.KeywordLocation
		if strings.HasSuffix(kw, "/anyOf") || strings.HasSuffix(kw, "/oneOf") {
			var alts []string
			for i := range u.Errors {
				alts = append(alts, leafTexts(&u.Errors[i])...)
			}
			if len(alts) > 0 {
				out = append(out, schema.Issue{Path: rawPath(inst, u.InstanceLocation), Message: "must satisfy one of: " + strings.Join(alts, "; or ")})
				return
			}
		}
		if len(u.Errors) == 0 {
			if u.Error != nil {
				out = append(out, schema.Issue{Path: rawPath(inst, u.InstanceLocation), Message: u.Error.String()})
			}
			return
		}
		for i := range u.Errors {
			walk(&u.Errors[i])
		}
	}
	walk(ve.DetailedOutput())
	return out
}

// noLoader refuses every document but the schema itself: a hand-written
// schema must not make the server read files or the network.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("%s: references to other documents are not followed; put the definition in $defs", url)
}

// leafTexts are the messages of the failed keywords under u, each with its
// path when it has one.
func leafTexts(u *santhosh.OutputUnit) []string {
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
