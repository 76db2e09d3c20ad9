package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Member is one action of a grouped tool, for Merge.
type Member struct {
	Key         string // action key: "list" or "users.list"
	Codec       *Codec
	Description string
}

// commonAction names the common struct in Merge's panic messages.
const commonAction = "(common)"

// mergedField gathers what the actions of a grouped tool say about one property.
type mergedField struct {
	name       string
	schema     *node  // the first declaration's schema
	typ        string // its JSON type
	first      string // the action (or commonAction) that declared it first
	common     bool
	commonReq  bool
	usedIn     []string
	requiredIn []string
	// decls are the actions' own schemas of the property, in action order
	// (none for a field of common, which every action shares).
	decls []decl
}

// Merge builds the single input schema of a grouped tool: one object whose
// discriminator property (listed first, required, its enum the member keys in
// order, its description Messages.DiscriminatorDescription followed by the
// members' descriptions, when they have one) selects the action, and whose
// other properties are the union of the actions' properties, each defined
// once. A property every action declares alike is written as they declare
// it; one they declare differently (another description, enum, default,
// bound or format) keeps only what they agree on and says, per action, what
// each declares (see perAction): a grouped tool never tells one action what
// another's declaration says.
//
// Required are the discriminator, the required fields of common and the
// fields every action requires. Of any other property, the description
// says who takes it and who requires it, in lines of the form "actions:
// what they say of it" (see perAction), naming the others instead when
// that is shorter (Messages.NoteAllBut):
//
//	list, search: Page size
//	get, update (required): Project ID
//	all but list, create (required): Task ID
//
// An optional property that every action accepts (such as an optional field
// of common) gets no line: it applies everywhere. When a Messages sets the
// tier notes (NoteRequiredFor, NoteRequiredAndFor, NoteFor), a property
// every action declares alike gets them instead, appended to its
// description; NoteAlwaysRequired is appended to a required field of common
// when set. The discriminator description and the notes are those of msgs
// (the built-in texts when nil).
//
// Merge panics, naming the property, both actions and both types, when two
// actions give one property different JSON types; and on an empty
// discriminator, no members, a nil Codec, a repeated key, or a field that
// uses the discriminator's name (in any case). common may be nil.
func Merge(discriminator string, common *Codec, members []Member, msgs *Messages) json.RawMessage {
	msgs = messagesOr(msgs)
	if discriminator == "" {
		panic("schema: Merge: empty discriminator name")
	}
	if len(members) == 0 {
		panic("schema: Merge: no members")
	}
	keys := make([]any, 0, len(members))
	names := make([]string, 0, len(members))
	seen := make(map[string]bool, len(members)) // a set: tools may have thousands of actions
	for _, m := range members {
		if m.Codec == nil {
			panic(fmt.Sprintf("schema: Merge: member %q has a nil Codec", m.Key))
		}
		if m.Key == "" || seen[m.Key] {
			panic(fmt.Sprintf("schema: Merge: member key %q is empty or repeated", m.Key))
		}
		seen[m.Key] = true
		keys = append(keys, m.Key)
		names = append(names, m.Key)
	}

	var order []*mergedField
	byName := map[string]*mergedField{}
	defs := &node{}
	var constraints []any // what members say of the whole object: conditional rules, a hand-written schema's allOf...
	add := func(action string, c *Codec) {
		props := c.tree.root.obj("properties")
		for _, f := range c.fields {
			if strings.EqualFold(f.Name, discriminator) {
				// Case-insensitive: encoding/json would fill such a field from
				// the discriminator, which Decode's Skip accepts and ignores.
				panic(fmt.Sprintf("schema: Merge: field %q of action %q has the discriminator's name; rename one of them",
					f.Name, action))
			}
			e := byName[f.Name]
			if e == nil {
				e = &mergedField{name: f.Name, schema: props.obj(f.Name).clone(), typ: f.Type, first: action}
				byName[f.Name] = e
				order = append(order, e)
			} else if e.typ != f.Type {
				panic(fmt.Sprintf("schema: Merge: field %q is %s in action %q but %s in action %q; "+
					"give both the same type or use different names",
					f.Name, typeWord(e.typ), e.first, typeWord(f.Type), action))
			}
			if action == commonAction {
				e.common, e.commonReq = true, f.Required
				continue
			}
			e.decls = append(e.decls, decl{action: action, schema: props.obj(f.Name), required: f.Required})
			e.usedIn = append(e.usedIn, action)
			if f.Required {
				e.requiredIn = append(e.requiredIn, action)
			}
		}
		for _, name := range c.tree.defNames {
			if !defs.has(name) {
				defs.set(name, c.tree.defs[name])
			}
		}
		if c.raw != nil {
			mergeRawDefs(defs, action, c)
		}
		if extra := rootConstraints(action, c); extra != nil {
			if action != commonAction {
				// Only when the discriminator selects this action.
				when := &node{}
				props := &node{}
				props.set(discriminator, constNode(action))
				when.set("properties", props)
				when.set("required", []any{discriminator})
				w := &node{}
				w.set("if", when)
				w.set("then", extra)
				extra = w
			}
			constraints = append(constraints, extra)
		}
	}
	if common != nil {
		add(commonAction, common)
	}
	for _, m := range members {
		add(m.Key, m.Codec)
	}

	props := &node{}
	disc := &node{}
	disc.set("type", "string")
	if d := discriminatorDescription(members, msgs); d != "" {
		disc.set("description", d)
	}
	disc.set("enum", keys)
	props.set(discriminator, disc)
	required := []any{discriminator}
	tiers := msgs.NoteRequiredFor != "" || msgs.NoteRequiredAndFor != "" || msgs.NoteFor != ""
	for _, e := range order {
		// A field every action requires is required by the tool: its
		// schema's own "required" says so, no note has to.
		everyone := !e.common && len(e.requiredIn) == len(members)
		if everyone {
			required = append(required, e.name)
		}
		switch {
		case e.common:
		case !agreed(e.decls) || !tiers && (len(e.usedIn) < len(members) || len(e.requiredIn) > 0 && !everyone):
			// Per-action lines: who takes the field, who requires it, and
			// what each says of it when they disagree.
			e.schema = perAction(e.decls, names, everyone, msgs)
			props.set(e.name, e.schema)
			continue
		}
		if note := tierNote(e, len(members), msgs); note != "" {
			e.schema = refWrapped(e.schema)
			e.schema.set("description", joinNote(e.schema.str("description"), note))
			e.schema.sortKeywords()
		}
		props.set(e.name, e.schema)
		if e.common && e.commonReq {
			required = append(required, e.name)
		}
	}
	root := &node{}
	root.set("type", "object")
	root.set("properties", props)
	root.set("required", required)
	root.set("additionalProperties", false)
	if len(constraints) > 0 {
		root.set("allOf", constraints)
	}
	if defs.len() > 0 {
		root.set("$defs", defs)
	}
	return root.marshal()
}

// discriminatorDescription says what the discriminator does and, for the
// members that have a description, what each action does: this is where a
// model looks when it picks one.
func discriminatorDescription(members []Member, msgs *Messages) string {
	var items []string
	for _, m := range members {
		if d := strings.TrimRight(strings.TrimSpace(m.Description), "."); d != "" {
			items = append(items, m.Key+": "+d)
		}
	}
	switch {
	case len(items) == 0:
		return msgs.DiscriminatorDescription
	case msgs.DiscriminatorDescription == "":
		return strings.Join(items, "; ")
	}
	return msgs.DiscriminatorDescription + fmt.Sprintf(msgs.DiscriminatorActions, strings.Join(items, "; "))
}

func typeWord(t string) string {
	if t == "" {
		return "untyped (any)"
	}
	return t
}

// tierNote says which actions need property e (see Merge), worded by msgs.
func tierNote(e *mergedField, actions int, msgs *Messages) string {
	if e.common && e.commonReq {
		return msgs.NoteAlwaysRequired
	}
	required := make(map[string]bool, len(e.requiredIn))
	for _, a := range e.requiredIn {
		required[a] = true
	}
	var optional []string
	for _, a := range e.usedIn {
		if !required[a] {
			optional = append(optional, a)
		}
	}
	switch {
	case len(e.requiredIn) > 0 && len(optional) == 0:
		return note(msgs.NoteRequiredFor, strings.Join(e.requiredIn, ", "))
	case len(e.requiredIn) > 0:
		return note(msgs.NoteRequiredAndFor, strings.Join(e.requiredIn, ", "), strings.Join(optional, ", "))
	case e.common || len(e.usedIn) == actions:
		return ""
	}
	return note(msgs.NoteFor, strings.Join(e.usedIn, ", "))
}

// note fills in a tier note's verbs; an empty note stays empty.
func note(format string, lists ...any) string {
	if format == "" {
		return ""
	}
	return fmt.Sprintf(format, lists...)
}

// joinNote appends note to desc as a sentence of its own.
func joinNote(desc, note string) string {
	switch {
	case desc == "":
		return note
	case strings.HasPrefix(note, "("), strings.HasSuffix(desc, "."), strings.HasSuffix(desc, "!"),
		strings.HasSuffix(desc, "?"):
		return desc + " " + note
	}
	return desc + ". " + note
}

// structuralKeywords are the keywords of an object schema that Merge
// rebuilds itself; any other keyword of a member's root applies to the
// whole object and is kept, for that member's action only.
var structuralKeywords = map[string]bool{
	"type": true, "properties": true, "required": true, "additionalProperties": true,
	"$defs": true, "$schema": true, "description": true, "title": true,
}

// rootConstraints returns the keywords of c's root schema that constrain
// the object as a whole (if/then, dependentRequired, allOf...), or nil.
// A hand-written schema must be closed (additionalProperties false), as the
// merged schema is, and refer only to its own $defs.
func rootConstraints(action string, c *Codec) *node {
	root := c.tree.root
	if c.raw != nil {
		if ap, ok := root.get("additionalProperties"); !ok || ap != false {
			panic(fmt.Sprintf("schema: Merge: action %q has a hand-written schema without \"additionalProperties\": false; "+
				"a grouped tool's schema is closed, so add it or expose the tool flat", action))
		}
		walkRefs(root, func(ref string) {
			if strings.HasPrefix(ref, "#") && !strings.HasPrefix(ref, "#/$defs/") && strings.Contains(ref, "/") || ref == "#" {
				panic(fmt.Sprintf("schema: Merge: action %q: $ref %q points into its own schema, which the grouped tool's "+
					"schema rebuilds; refer to $defs instead, or expose the tool flat", action, ref))
			}
		})
	}
	var out *node
	for i, k := range root.keys {
		if structuralKeywords[k] {
			continue
		}
		if out == nil {
			out = &node{}
		}
		out.set(k, cloneValue(root.vals[i]))
	}
	return out
}

// mergeRawDefs adds a hand-written schema's $defs to the merged ones; a
// name another member defines differently cannot be shared.
func mergeRawDefs(defs *node, action string, c *Codec) {
	own := c.tree.root.obj("$defs")
	if own == nil {
		return
	}
	for i, name := range own.keys {
		if prev, ok := defs.get(name); ok {
			if !bytes.Equal(marshalValue(prev), marshalValue(own.vals[i])) {
				panic(fmt.Sprintf("schema: Merge: action %q defines $defs/%s, which another action defines differently; rename one", action, name))
			}
			continue
		}
		defs.set(name, cloneValue(own.vals[i]))
	}
}

func marshalValue(v any) []byte {
	var b bytes.Buffer
	writeValue(&b, v)
	return b.Bytes()
}
