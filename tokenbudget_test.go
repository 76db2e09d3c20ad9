package vurb_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tiktoken-go/tokenizer/codec"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/describe"
)

// The token budget: what a model reads of tools/list (each tool's name,
// description and input schema, counted with o200k_base, the encoding of
// GPT-4o and later) in both expositions of the SaaS fixture. Every token of
// tools/list sits in the model's context on every turn, so a change that
// adds some shows up here, in review.
//
//	go test -run TestTokenBudget -v .

var o200k = sync.OnceValue(codec.NewO200kBase)

func tokens(t testing.TB, s string) int {
	t.Helper()
	n, err := o200k().Count(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// modelView is the number of tokens a model reads of tools: name,
// description and input schema (compact JSON, as on the wire) of each.
func modelView(t testing.TB, tools []*mcp.Tool) int {
	t.Helper()
	n := 0
	for _, tool := range tools {
		schema, err := json.Marshal(tool.InputSchema)
		if err != nil {
			t.Fatal(err)
		}
		n += tokens(t, tool.Name) + tokens(t, tool.Description) + tokens(t, string(schema))
	}
	return n
}

// The budget of the SaaS fixture. Before issue 18 (first declaration wins,
// Requires lines, "(tool → action)" suffixes) it was flat 4851 and grouped
// 3340 tokens; truthful grouping without those repetitions brought it to
// 4512 and 2786, and stating each fact once (no description that repeats
// its field's name, no minLength an enum implies, "all but" the few
// actions that do not take a field) to 4132 and 2689. Lower them when a
// change saves tokens; a change that needs more must say why in review.
const (
	flatBudget    = 4132
	groupedBudget = 2689
)

func TestTokenBudget(t *testing.T) {
	is := is.New(t)
	flat := newSaaS().Tools()
	grouped := newSaaS(vurb.WithExposition(vurb.Grouped)).Tools()
	f, g := modelView(t, flat), modelView(t, grouped)
	t.Logf("SaaS fixture, model view (name + description + input schema, o200k_base): flat %d tokens (%d tools), grouped %d tokens (%d tools), grouped/flat %.2f",
		f, len(flat), g, len(grouped), float64(g)/float64(f))
	is.True(f <= flatBudget)    // flat exposition over its token budget
	is.True(g <= groupedBudget) // grouped exposition over its token budget

	// What telling each action's truth costs: the grouped tools with and
	// without their per-action lines (who takes a field, who requires it,
	// what each action declares) and marks, both re-encoded alike.
	truthful, bare := reencoded(t, grouped, false), reencoded(t, grouped, true)
	is.True(bare < truthful) // the notes cost something
	t.Logf("the truth costs %d tokens of grouped; without it grouped would be %.2f of flat", truthful-bare, float64(g-(truthful-bare))/float64(f))
}

// noteHead is the head of a per-action line: the actions, maybe "(required)".
var noteHead = regexp.MustCompile(`^(all but )?[a-z_]+(, [a-z_]+)*( \(required\))?(: |$)`)

// reencoded counts tools as modelView does, their schemas re-encoded from
// maps; bare leaves out the marks of the description and, of each field's
// per-action lines, all but the first one's text and facts (what a grouping
// in which the first declaration wins would say).
func reencoded(t *testing.T, tools []*mcp.Tool, bare bool) int {
	n := 0
	for _, tool := range tools {
		var s map[string]any
		if err := json.Unmarshal([]byte(mustJSON(t, tool.InputSchema)), &s); err != nil {
			t.Fatal(err)
		}
		desc := tool.Description
		if bare {
			for _, m := range []string{describe.ReadOnlyMark, describe.IdempotentMark, describe.DestructiveMark} {
				desc = strings.NewReplacer(" ("+m+")", "", ", "+m, "", m+", ", "").Replace(desc)
			}
			for _, p := range s["properties"].(map[string]any) {
				prop := p.(map[string]any)
				d, ok := prop["description"].(string)
				if !ok {
					continue
				}
				text := noteHead.ReplaceAllString(strings.Split(d, "\n")[0], "")
				if prop["description"] = text; text == "" {
					delete(prop, "description")
				}
			}
		}
		n += tokens(t, tool.Name) + tokens(t, desc) + tokens(t, mustJSON(t, s))
	}
	return n
}

// groupedClaim is what a grouped tool says about one field for one action.
type groupedClaim struct {
	used     bool
	required bool
	desc     string
	keywords map[string]string // keyword → canonical JSON, description aside
}

func canonical(v any) string {
	data, _ := json.Marshal(v)
	return string(data)
}

func keywordsOf(prop map[string]any) (string, map[string]string) {
	kw := map[string]string{}
	desc, _ := prop["description"].(string)
	for k, v := range prop {
		if k != "description" {
			kw[k] = canonical(v)
		}
	}
	return desc, kw
}

func schemaOf(t testing.TB, tool *mcp.Tool) (props map[string]map[string]any, required map[string]bool) {
	t.Helper()
	data, err := json.Marshal(tool.InputSchema)
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Properties map[string]map[string]any `json:"properties"`
		Required   []string                  `json:"required"`
	}
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	required = map[string]bool{}
	for _, r := range s.Required {
		required[r] = true
	}
	return s.Properties, required
}

// tierNote splits a merged field description into its own text and the
// note saying which actions use and require the field ("(always
// required)", "Required for: a, b. For: c", "For: a").
func tierNote(desc string) (text string, all, allRequired bool, requiredFor, usedFor []string) {
	split := func(list string) []string { return strings.Split(strings.TrimSuffix(list, "."), ", ") }
	switch {
	case strings.HasSuffix(desc, "(always required)"):
		return strings.TrimSpace(strings.TrimSuffix(desc, "(always required)")), true, true, nil, nil
	case strings.Contains(desc, "Required for: "):
		i := strings.LastIndex(desc, "Required for: ")
		text, note := desc[:i], desc[i+len("Required for: "):]
		req, opt, _ := strings.Cut(note, ". For: ")
		requiredFor = split(req)
		usedFor = append(usedFor, requiredFor...)
		if opt != "" {
			usedFor = append(usedFor, split(opt)...)
		}
		return strings.TrimSpace(text), false, false, requiredFor, usedFor
	case strings.Contains(desc, "For: "):
		i := strings.LastIndex(desc, "For: ")
		return strings.TrimSpace(desc[:i]), false, false, nil, split(desc[i+len("For: "):])
	}
	return desc, true, false, nil, nil
}

// claimsOf reads what a grouped tool says of each (action, field): the
// property's keywords, its description with the tier note, or its
// per-action lines ("a, b (required): text; one of x, y; default x").
// The tier notes of older versions are read too, to measure them.
func claimsOf(t testing.TB, tool *mcp.Tool, actions []string) map[string]map[string]groupedClaim {
	props, required := schemaOf(t, tool)
	out := map[string]map[string]groupedClaim{}
	for _, a := range actions {
		out[a] = map[string]groupedClaim{}
	}
	for name, prop := range props {
		if name == "action" {
			continue
		}
		desc, base := keywordsOf(prop)
		if _, ok := prop["allOf"]; ok && len(prop) <= 2 { // a described $ref
			delete(base, "allOf")
			for k, v := range prop["allOf"].([]any)[0].(map[string]any) {
				base[k] = canonical(v)
			}
		}
		var shared []string
		perAction := map[string]groupedClaim{}
		for _, line := range strings.Split(desc, "\n") {
			heads, facts, ok := clauseOf(line, actions)
			if !ok {
				shared = append(shared, line)
				continue
			}
			for _, h := range heads {
				c := groupedClaim{used: true, required: h.required, keywords: map[string]string{}}
				for k, v := range base {
					c.keywords[k] = v
				}
				// Facts are read from the end: what precedes the last
				// known one is the description, "; " in it included.
				n := len(facts)
				for n > 0 {
					k, v, ok := parseFact(facts[n-1])
					if !ok {
						break
					}
					c.keywords[k] = canonical(v)
					n--
				}
				c.desc = strings.Join(facts[:n], "; ")
				perAction[h.action] = c
			}
		}
		text, all, allRequired, requiredFor, usedFor := tierNote(strings.Join(shared, "\n"))
		for _, a := range actions {
			if len(perAction) > 0 {
				c, ok := perAction[a]
				if ok && c.desc == "" {
					c.desc = text
				}
				c.required = c.required || required[name]
				out[a][name] = c
				continue
			}
			c := groupedClaim{used: all || contains(usedFor, a), desc: text, keywords: base}
			c.required = allRequired || required[name] || contains(requiredFor, a)
			out[a][name] = c
		}
	}
	return out
}

type clauseHead struct {
	action   string
	required bool
}

// clauseOf parses a per-action line: its heads, each an action of the tool
// maybe marked "(required)", and its facts.
func clauseOf(line string, actions []string) ([]clauseHead, []string, bool) {
	head, rest, _ := strings.Cut(line, ": ")
	head, required := strings.CutSuffix(head, " (required)")
	named := strings.Split(head, ", ")
	if others, ok := strings.CutPrefix(head, "all but "); ok {
		// "all but a, b": every action of the tool but those.
		named = nil
		for _, a := range actions {
			if !contains(strings.Split(others, ", "), a) {
				named = append(named, a)
			}
		}
	}
	var heads []clauseHead
	for _, a := range named {
		if !contains(actions, a) {
			return nil, nil, false
		}
		heads = append(heads, clauseHead{a, required})
	}
	var facts []string
	if rest != "" {
		facts = strings.Split(rest, "; ")
	}
	return heads, facts, true
}

// parseFact reads one fact of a per-action line back into its keyword and
// value, or says it is none of the known forms.
func parseFact(f string) (string, any, bool) {
	value := func(s string) any {
		var v any
		if json.Unmarshal([]byte(s), &v) == nil {
			return v
		}
		return s
	}
	for _, w := range []struct{ prefix, keyword string }{
		{"one of ", "enum"}, {"default ", "default"}, {"format ", "format"}, {"pattern ", "pattern"},
		{"min length ", "minLength"}, {"max length ", "maxLength"}, {"min items ", "minItems"}, {"max items ", "maxItems"},
		{"min ", "minimum"}, {"max ", "maximum"}, {"above ", "exclusiveMinimum"}, {"below ", "exclusiveMaximum"},
	} {
		if rest, ok := strings.CutPrefix(f, w.prefix); ok {
			if w.keyword == "enum" {
				var list []any
				for _, e := range strings.Split(rest, ", ") {
					list = append(list, value(e))
				}
				return "enum", list, true
			}
			return w.keyword, value(rest), true
		}
	}
	return "", nil, false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func norm(desc string) string { return strings.TrimSuffix(strings.TrimSpace(desc), ".") }

// keywordKind names the kind of fact a keyword carries, for the report.
func keywordKind(k string) string {
	switch k {
	case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength", "minItems", "maxItems":
		return "bounds"
	case "enum", "default", "format", "pattern", "type":
		return k
	}
	return "other"
}

// groupedMisstatements compares, field by field, each action's own schema
// (its flat tool) with what the grouped tool says about it, and returns
// the (action, field) pairs it misstates with what is wrong, and the
// number of pairs compared.
func groupedMisstatements(t testing.TB, flat, grouped []*mcp.Tool) (wrong map[string][]string, pairs int) {
	t.Helper()
	byName := map[string]*mcp.Tool{}
	for _, tool := range flat {
		byName[tool.Name] = tool
	}
	wrong = map[string][]string{}
	for _, g := range grouped {
		props, _ := schemaOf(t, g)
		var actions []string
		for _, k := range props["action"]["enum"].([]any) {
			actions = append(actions, k.(string))
		}
		claims := claimsOf(t, g, actions)
		for _, a := range actions {
			own := byName[g.Name+"_"+a]
			if own == nil {
				t.Fatalf("no flat tool for %s.%s", g.Name, a)
			}
			ownProps, ownRequired := schemaOf(t, own)
			fields := map[string]bool{}
			for f := range ownProps {
				fields[f] = true
			}
			for f, c := range claims[a] {
				if c.used {
					fields[f] = true
				}
			}
			for f := range fields {
				pairs++
				key := g.Name + "." + a + " " + f
				c, prop := claims[a][f], ownProps[f]
				switch {
				case prop == nil:
					wrong[key] = append(wrong[key], "phantom field")
					continue
				case !c.used:
					wrong[key] = append(wrong[key], "missing field")
					continue
				}
				desc, kw := keywordsOf(prop)
				if norm(desc) != norm(c.desc) {
					wrong[key] = append(wrong[key], fmt.Sprintf("description %q, says %q", desc, c.desc))
				}
				if ownRequired[f] != c.required {
					wrong[key] = append(wrong[key], fmt.Sprintf("required %v, says %v", ownRequired[f], c.required))
				}
				for k := range union(kw, c.keywords) {
					if kw[k] != c.keywords[k] {
						wrong[key] = append(wrong[key], fmt.Sprintf("%s: %s %s, says %s", keywordKind(k), k, orNone(kw[k]), orNone(c.keywords[k])))
					}
				}
			}
		}
	}
	return wrong, pairs
}

func union(a, b map[string]string) map[string]bool {
	out := map[string]bool{}
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

func TestGroupedTellsEachActionsTruth(t *testing.T) {
	flat := newSaaS().Tools()
	grouped := newSaaS(vurb.WithExposition(vurb.Grouped)).Tools()
	wrong, pairs := groupedMisstatements(t, flat, grouped)
	var keys []string
	kinds := map[string]int{}
	for k, what := range wrong {
		keys = append(keys, k)
		for _, w := range what {
			kind, _, _ := strings.Cut(w, " ")
			kinds[strings.TrimSuffix(kind, ":")]++
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Logf("%s: %s", k, strings.Join(wrong[k], "; "))
	}
	t.Logf("grouped exposition misstates %d of %d (action, field) pairs; facts by kind: %v", len(wrong), pairs, kinds)
	if len(wrong) > 0 {
		t.Errorf("grouped exposition misstates %d (action, field) pairs", len(wrong))
	}
}

// hintMarks are the texts a grouped description marks an action with, per
// annotation hint.
var hintMarks = map[string][]string{
	"readOnly":    {describe.ReadOnlyMark},
	"idempotent":  {describe.IdempotentMark},
	"destructive": {describe.DestructiveMark},
}

func hints(a *mcp.ToolAnnotations) map[string]bool {
	return map[string]bool{"readOnly": a.ReadOnlyHint, "idempotent": a.IdempotentHint,
		"destructive": a.DestructiveHint == nil || *a.DestructiveHint}
}

// marked reports whether the description line of action key carries one of
// marks: a line "key: text (mark, mark)" of the grouped description.
func marked(desc, key string, marks []string) bool {
	for _, line := range strings.Split(desc, "\n") {
		rest, ok := strings.CutPrefix(line, key+":")
		if !ok || !strings.HasSuffix(rest, ")") {
			continue
		}
		i := strings.LastIndex(rest, "(")
		for _, m := range strings.Split(rest[i+1:len(rest)-1], ", ") {
			if contains(marks, m) {
				return true
			}
		}
	}
	return false
}

// groupedHintMisstatements counts the (action, hint) pairs a grouped tool
// misstates: a hint the tool's annotations give that the action's own do
// not, when no action of the tool is marked with that hint in the
// description, or a mark that disagrees with the action's own hint.
func groupedHintMisstatements(t testing.TB, flat, grouped []*mcp.Tool) (wrong []string, pairs int) {
	byName := map[string]*mcp.Tool{}
	for _, tool := range flat {
		byName[tool.Name] = tool
	}
	for _, g := range grouped {
		props, _ := schemaOf(t, g)
		var actions []string
		for _, k := range props["action"]["enum"].([]any) {
			actions = append(actions, k.(string))
		}
		toolHints := hints(g.Annotations)
		for hint, marks := range hintMarks {
			anyMarked := false
			for _, a := range actions {
				anyMarked = anyMarked || marked(g.Description, a, marks)
			}
			for _, a := range actions {
				pairs++
				own := hints(byName[g.Name+"_"+a].Annotations)[hint]
				says := toolHints[hint]
				if anyMarked {
					says = marked(g.Description, a, marks)
				}
				if own != says {
					wrong = append(wrong, fmt.Sprintf("%s.%s %s: %v, says %v", g.Name, a, hint, own, says))
				}
			}
		}
	}
	sort.Strings(wrong)
	return wrong, pairs
}

func TestGroupedTellsEachActionsHints(t *testing.T) {
	flat := newSaaS().Tools()
	grouped := newSaaS(vurb.WithExposition(vurb.Grouped)).Tools()
	wrong, pairs := groupedHintMisstatements(t, flat, grouped)
	for _, w := range wrong {
		t.Log(w)
	}
	lost := 0
	for _, g := range grouped {
		if g.OutputSchema == nil {
			for _, f := range flat {
				if strings.HasPrefix(f.Name, g.Name+"_") && f.OutputSchema != nil {
					lost++
				}
			}
		}
	}
	t.Logf("grouped exposition misstates %d of %d (action, hint) pairs; %d actions' output schemas are not listed", len(wrong), pairs, lost)
	if len(wrong) > 0 {
		t.Errorf("grouped exposition misstates %d (action, hint) pairs", len(wrong))
	}
}

// TestGroupedValidatesPerAction: the grouped schema states the union of
// what the actions accept, and each call is checked by its own action's
// rules.
func TestGroupedValidatesPerAction(t *testing.T) {
	is := is.New(t)
	app := newSaaS(vurb.WithExposition(vurb.Grouped))
	for _, tc := range []struct {
		tool, args string
		ok         bool
	}{
		{"users", `{"action":"list","workspace_id":"w","role":"owner"}`, true},
		{"users", `{"action":"invite","workspace_id":"w","email":"a@b.co","role":"owner"}`, false}, // invite never grants owner
		{"users", `{"action":"invite","workspace_id":"w","email":"a@b.co","role":"guest"}`, true},
		{"tasks", `{"action":"list","workspace_id":"w","project_id":"p","status":"all"}`, true},
		{"tasks", `{"action":"transition","workspace_id":"w","task_id":"t","status":"all"}`, false},
		{"tasks", `{"action":"transition","workspace_id":"w","task_id":"t"}`, false},        // status is required there
		{"users", `{"action":"search","workspace_id":"w","query":"ada","limit":50}`, false}, // search pages by 20 at most
		{"users", `{"action":"list","workspace_id":"w","limit":50}`, true},
	} {
		res := call(t, app, tc.tool, tc.args)
		is.Equal(!res.IsError, tc.ok) // the action's own rules decide
	}
}

// TestGroupedOutputSchema: a grouped tool lists an output schema when all
// its actions return the same type, and none when they differ.
func TestGroupedOutputSchema(t *testing.T) {
	is := is.New(t)
	app := vurb.New(vurb.WithExposition(vurb.Grouped))
	same := app.Tool("keys")
	vurb.Query(same, "get", saasOK[SaaSKeyRef](SaaSKey{}))
	vurb.Action(same, "create", saasOK[SaaSKeyCreate](SaaSKey{}))
	mixed := app.Tool("plans")
	vurb.Query(mixed, "get", saasOK[SaaSWorkspace](SaaSPlan{}))
	vurb.Action(mixed, "change", saasText[SaaSPlanChange]("changed"))
	tools := app.Tools()
	is.True(tools[0].OutputSchema != nil) // keys: both return SaaSKey
	is.True(tools[1].OutputSchema == nil) // plans: a SaaSPlan, and text
	flat := vurb.New()
	vurb.Query(flat, "keys.get", saasOK[SaaSKeyRef](SaaSKey{}))
	is.Equal(mustJSON(t, tools[0].OutputSchema), mustJSON(t, flat.Tools()[0].OutputSchema))
}
