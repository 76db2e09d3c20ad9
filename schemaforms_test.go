package vurb_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/vurb-go/vurb"
)

// The forms a grouped schema could take to state each action's facts
// about a shared field, measured on the SaaS fixture:
//
//   - notes: per-action lines in the field's description (what vurb sends);
//   - if/then: the shared facts in the property, each action's own in a
//     root allOf of {"if": {discriminator const}, "then": {...}} branches,
//     readable by validators;
//   - both.
//
// go test -run TestGroupedSchemaForms -v .

// branchesOf builds the if/then branches that say, per action, what the
// claims read from the notes say and the property itself does not.
func branchesOf(t testing.TB, tool *mcp.Tool) (plain map[string]any, allOf []any) {
	props, _ := schemaOf(t, tool)
	var actions []string
	for _, k := range props["action"]["enum"].([]any) {
		actions = append(actions, k.(string))
	}
	claims := claimsOf(t, tool, actions)
	// A description every action that takes the field gives stays in the
	// property; the others go to the branches.
	shared := map[string]string{}
	plainProps := map[string]any{}
	for name, prop := range props {
		p := map[string]any{}
		for k, v := range prop {
			if k != "description" || name == "action" {
				p[k] = v
			}
		}
		desc, same := "", true
		for i, a := range actions {
			c := claims[a][name]
			if !c.used {
				continue
			}
			if i > 0 && desc != "" && c.desc != desc {
				same = false
			}
			desc = c.desc
		}
		if same && desc != "" && name != "action" {
			p["description"], shared[name] = desc, desc
		}
		plainProps[name] = p
	}
	for _, a := range actions {
		then := map[string]any{}
		var required []string
		for f, c := range claims[a] {
			if !c.used {
				continue
			}
			own := map[string]any{}
			if c.desc != "" && c.desc != shared[f] {
				own["description"] = c.desc
			}
			for k, v := range c.keywords {
				if canonical(props[f][k]) != v {
					var value any
					_ = json.Unmarshal([]byte(v), &value)
					own[k] = value
				}
			}
			if len(own) > 0 {
				then[f] = own
			}
			if c.required {
				required = append(required, f)
			}
		}
		branch := map[string]any{"properties": then}
		if len(required) > 0 {
			branch["required"] = required
		}
		allOf = append(allOf, map[string]any{
			"if":   map[string]any{"properties": map[string]any{"action": map[string]any{"const": a}}},
			"then": branch,
		})
	}
	data, _ := json.Marshal(tool.InputSchema)
	_ = json.Unmarshal(data, &plain)
	plain["properties"] = plainProps
	return plain, allOf
}

func compile2020(t testing.TB, schema any) {
	t.Helper()
	data, _ := json.Marshal(schema)
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource("mem://s.json", doc); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Compile("mem://s.json"); err != nil {
		t.Fatal(err)
	}
}

func TestGroupedSchemaForms(t *testing.T) {
	is := is.New(t)
	grouped := newSaaS(vurb.WithExposition(vurb.Grouped)).Tools()
	count := func(name, desc string, schema any) int {
		compile2020(t, schema)
		data, _ := json.Marshal(schema)
		return tokens(t, name) + tokens(t, desc) + tokens(t, string(data))
	}
	notes, ifThen, both := 0, 0, 0
	for _, g := range grouped {
		plain, allOf := branchesOf(t, g)
		var asSent map[string]any
		data, _ := json.Marshal(g.InputSchema)
		_ = json.Unmarshal(data, &asSent)
		notes += count(g.Name, g.Description, asSent)
		plain["allOf"] = allOf
		ifThen += count(g.Name, g.Description, plain)
		asSent["allOf"] = allOf
		both += count(g.Name, g.Description, asSent)
	}
	t.Logf("grouped SaaS fixture, model-view tokens by form: notes %d, if/then %d (%.2fx), both %d (%.2fx)",
		notes, ifThen, float64(ifThen)/float64(notes), both, float64(both)/float64(notes))
	is.True(notes < ifThen) // the reason vurb writes notes
}
