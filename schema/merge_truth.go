package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// decl is one action's own declaration of a property of a grouped tool.
type decl struct {
	action   string
	schema   *node
	required bool
}

// agreed reports whether every action declares the property alike (its
// required flag aside, which the notes carry).
func agreed(decls []decl) bool {
	for _, d := range decls[1:] {
		if !bytes.Equal(decls[0].schema.marshal(), d.schema.marshal()) {
			return false
		}
	}
	return true
}

// perAction is the merged schema of a property that not every action
// takes alike: some do not take it, some require it, or they declare it
// differently (another description, enum, default, bound or format). It
// must not tell one action what another's declaration says, so:
//
//   - it keeps the keywords every action gives alike (the type at least), so
//     it never rejects a value one of the actions accepts: what is narrower
//     for one action is checked by that action's own validator, since a
//     grouped call is decoded by the action it names;
//
//   - its description is the shared text, if any, then one line per set of
//     actions that declare the property alike, naming them, marking those
//     that require it with Messages.NoteRequired, and saying what differs:
//
//     tasks.list: Filter by status; one of open, done, all; default all
//     tasks.transition (required): New status; one of open, done
//
//     The mark follows the list of actions it applies to. When all declare
//     it alike and all or none require it, that is one line: "get, update
//     (required): Project ID".
//
// Facts are written as a model reads them and as a program can parse
// them back (see factText), separated by "; ". This note costs about half
// the tokens of the same facts as if/then branches on the discriminator,
// and is accepted by every client, where a top-level allOf is refused by
// some (the Anthropic API rejects allOf, anyOf and oneOf at the root of a
// tool's input schema).
func perAction(decls []decl, actions []string, everyone bool, msgs *Messages) *node {
	// The keywords the actions give alike, in the first declaration's order.
	base := &node{}
	var differ []string
	seen := map[string]bool{}
	for _, d := range decls {
		for _, k := range d.schema.keys {
			if seen[k] {
				continue
			}
			seen[k] = true
			if v, ok := sameEverywhere(decls, k); ok {
				base.set(k, cloneValue(v))
			} else {
				differ = append(differ, k)
			}
		}
	}
	// Sets of actions that declare the differing keywords alike.
	type clause struct {
		actions  []string
		required bool
		facts    []string
	}
	var clauses []*clause
	byFacts := map[string]*clause{}
	for _, d := range decls {
		var facts []string
		for _, k := range differ {
			if v, ok := d.schema.get(k); ok {
				facts = append(facts, factText(k, v))
			}
		}
		// When every action requires it, the tool's "required" says so.
		required := d.required && !everyone
		key := strings.Join(facts, "\x00")
		if required {
			key += "\x00required"
		}
		c := byFacts[key]
		if c == nil {
			c = &clause{required: required, facts: facts}
			byFacts[key] = c
			clauses = append(clauses, c)
		}
		c.actions = append(c.actions, d.action)
	}
	lines := make([]string, 0, len(clauses)+1)
	if shared := base.str("description"); shared != "" {
		if len(clauses) == 1 {
			// One line says it all: "list, search: Page size".
			clauses[0].facts = append([]string{factText("description", shared)}, clauses[0].facts...)
		} else {
			lines = append(lines, shared)
		}
	}
	for _, c := range clauses {
		line := strings.Join(c.actions, ", ")
		if len(clauses) == 1 {
			line = allBut(line, c.actions, actions, msgs)
		}
		if c.required && msgs.NoteRequired != "" {
			line += " " + msgs.NoteRequired
		}
		if len(c.facts) > 0 {
			line += ": " + strings.Join(c.facts, "; ")
		}
		lines = append(lines, line)
	}
	base = refWrapped(base)
	base.set("description", strings.Join(lines, "\n"))
	base.sortKeywords()
	return base
}

// allBut names the actions of list as those of the tool but the others,
// "all but list, create", when that is shorter: a tool's id is taken by
// most of its actions. Only a property's single line may: with several,
// "all but" would take in the actions the other lines name.
func allBut(list string, named, actions []string, msgs *Messages) string {
	if msgs.NoteAllBut == "" || len(named) == len(actions) {
		return list
	}
	others := make([]string, 0, len(actions)-len(named))
	for _, a := range actions {
		if !slices.Contains(named, a) {
			others = append(others, a)
		}
	}
	if short := fmt.Sprintf(msgs.NoteAllBut, strings.Join(others, ", ")); len(short) < len(list) {
		return short
	}
	return list
}

// sameEverywhere returns keyword k's value when every declaration gives it
// and gives the same.
func sameEverywhere(decls []decl, k string) (any, bool) {
	first, ok := decls[0].schema.get(k)
	if !ok {
		return nil, false
	}
	want := marshalValue(first)
	for _, d := range decls[1:] {
		v, ok := d.schema.get(k)
		if !ok || !bytes.Equal(marshalValue(v), want) {
			return nil, false
		}
	}
	return first, true
}

// factWords are the words of a per-action note, by keyword. A keyword not
// listed is written as itself and its JSON value.
var factWords = map[string]string{
	"enum": "one of", "default": "default", "format": "format", "pattern": "pattern",
	"minimum": "min", "maximum": "max", "exclusiveMinimum": "above", "exclusiveMaximum": "below",
	"minLength": "min length", "maxLength": "max length", "minItems": "min items", "maxItems": "max items",
}

// factText writes one keyword of a per-action note: the description as
// it is, "one of a, b", "default 20", "max length 80", "format email"...
func factText(k string, v any) string {
	if k == "description" {
		s, _ := v.(string)
		return strings.TrimRight(s, ".")
	}
	word, ok := factWords[k]
	if !ok {
		return k + " " + string(marshalValue(v))
	}
	if values, isList := v.([]any); isList && k == "enum" {
		texts := make([]string, len(values))
		for i, e := range values {
			texts[i] = valueText(e)
		}
		return word + " " + strings.Join(texts, ", ")
	}
	return word + " " + valueText(v)
}

// valueText writes a value of a note: a string bare when it reads back as
// itself (not empty, not JSON of another kind, without the note's
// separators), as JSON otherwise.
func valueText(v any) string {
	s, isString := v.(string)
	if !isString {
		return string(marshalValue(v))
	}
	var probe any
	if s == "" || strings.ContainsAny(s, ",;\n") || s != strings.TrimSpace(s) || json.Unmarshal([]byte(s), &probe) == nil {
		return string(marshalValue(s))
	}
	return s
}
