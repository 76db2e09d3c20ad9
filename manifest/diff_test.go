package manifest_test

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb/manifest"
	"github.com/vurb-go/vurb/servercard"
)

// tool is a tool whose input schema has the given properties and required
// fields, closed to others as vurb's are.
func tool(name, props string, required ...string) manifest.Tool {
	req, _ := json.Marshal(required)
	if required == nil {
		req = []byte("[]")
	}
	return manifest.Tool{
		Name:        name,
		InputSchema: json.RawMessage(`{"type":"object","properties":{` + props + `},"required":` + string(req) + `,"additionalProperties":false}`),
		Annotations: &manifest.Annotations{ReadOnlyHint: true, DestructiveHint: new(false)},
	}
}

func tools(ts ...manifest.Tool) manifest.Manifest { return manifest.Manifest{Tools: ts} }

// with returns t changed by f.
func with(t manifest.Tool, f func(*manifest.Tool)) manifest.Tool {
	f(&t)
	return t
}

func output(t manifest.Tool, schema string) manifest.Tool {
	t.OutputSchema = json.RawMessage(schema)
	return t
}

func input(t manifest.Tool, schema string) manifest.Tool {
	t.InputSchema = json.RawMessage(schema)
	return t
}

const (
	nameProp  = `"name":{"type":"string","description":"Project name"}`
	limitProp = `"limit":{"type":"integer","minimum":1,"maximum":100}`
)

var (
	base     = tool("projects_create", nameProp, "name")
	withLim  = tool("projects_create", nameProp+","+limitProp, "name")
	outBase  = output(base, `{"type":"object","properties":{"id":{"type":"string"},"status":{"type":"string","enum":["open","closed"]}},"required":["id"]}`)
	grouped  = func(m manifest.Manifest) manifest.Manifest { m.Exposition = "grouped"; return m }
	prompt   = manifest.Prompt{Name: "review", Arguments: []manifest.Argument{{Name: "code", Required: true}}}
	resource = manifest.Resource{URI: "file:///readme", Name: "readme", MIMEType: "text/markdown"}
	action   = manifest.Action{Key: "projects.create", InputSchema: base.InputSchema, Annotations: base.Annotations}
)

// withTask is a runs as a task, task-only when required.
func withTask(a manifest.Action, required bool) manifest.Action {
	a.Task = &manifest.Task{Required: required}
	return a
}

// presented is a with presenters that redact, omit and cut what p says.
func presented(a manifest.Action, p *manifest.Presentation) manifest.Action {
	a.Presentation = p
	return a
}

var invoicePresentation = &manifest.Presentation{Presenters: []string{"billing.Invoice"},
	Redacted: []string{"invoices[].card_number"}, Omitted: []string{"invoices[].note"}, Limits: map[string]int{"invoices": 20}}

type change struct {
	kind     manifest.Kind
	breaking bool
	path     string
	reason   string
}

func TestDiff(t *testing.T) {
	for _, tc := range []struct {
		name     string
		old, new manifest.Manifest
		want     []change
	}{
		{"nothing", tools(base), tools(base), nil},
		{"tool removed", tools(base, tool("x", "")), tools(base),
			[]change{{manifest.ToolRemoved, true, "tools/x", "tool removed: calls to it will fail"}}},
		{"tool added", tools(base), tools(base, tool("x", "")),
			[]change{{manifest.ToolAdded, false, "tools/x", "new tool"}}},
		{"new required field", tools(base), tools(tool("projects_create", nameProp+`,"owner":{"type":"string"}`, "name", "owner")),
			[]change{{manifest.RequiredAdded, true, "tools/projects_create/input/owner", `new required field "owner": calls without it are refused`}}},
		{"field made required", tools(withLim), tools(tool("projects_create", nameProp+","+limitProp, "name", "limit")),
			[]change{{manifest.RequiredAdded, true, "tools/projects_create/input/limit", `field "limit" is now required: calls without it are refused`}}},
		{"required field made optional", tools(base), tools(tool("projects_create", nameProp)),
			[]change{{manifest.RequiredRemoved, false, "tools/projects_create/input/name", `field "name" is now optional`}}},
		{"new optional field", tools(base), tools(withLim),
			[]change{{manifest.FieldAdded, false, "tools/projects_create/input/limit", `new optional field "limit"`}}},
		{"field removed", tools(withLim), tools(base),
			[]change{{manifest.FieldRemoved, true, "tools/projects_create/input/limit", `field "limit" removed: calls that send it are refused`}}},
		{"type narrowed", tools(tool("t", `"id":{"type":["string","integer"]}`)), tools(tool("t", `"id":{"type":"string"}`)),
			[]change{{manifest.TypeNarrowed, true, "tools/t/input/id/type", "type narrowed from integer|string to string"}}},
		{"type widened", tools(tool("t", `"n":{"type":"integer"}`)), tools(tool("t", `"n":{"type":"number"}`)),
			[]change{{manifest.TypeWidened, false, "tools/t/input/n/type", "type widened from integer to number"}}},
		{"type changed", tools(tool("t", `"n":{"type":"integer"}`)), tools(tool("t", `"n":{"type":"string"}`)),
			[]change{{manifest.TypeChanged, true, "tools/t/input/n/type", "type changed from integer to string"}}},
		{"enum narrowed", tools(tool("t", `"role":{"type":"string","enum":["admin","member","guest"]}`)), tools(tool("t", `"role":{"type":"string","enum":["admin","member"]}`)),
			[]change{{manifest.EnumNarrowed, true, "tools/t/input/role/enum", `"guest" no longer accepted`}}},
		{"enum widened", tools(tool("t", `"role":{"type":"string","enum":["admin"]}`)), tools(tool("t", `"role":{"type":"string","enum":["admin","member"]}`)),
			[]change{{manifest.EnumWidened, false, "tools/t/input/role/enum", `"member" now accepted too`}}},
		{"range narrowed", tools(withLim), tools(tool("projects_create", nameProp+`,"limit":{"type":"integer","minimum":1,"maximum":50}`, "name")),
			[]change{{manifest.RangeNarrowed, true, "tools/projects_create/input/limit/maximum", "maximum tightened from 100 to 50"}}},
		{"range widened", tools(withLim), tools(tool("projects_create", nameProp+`,"limit":{"type":"integer","minimum":1}`, "name")),
			[]change{{manifest.RangeWidened, false, "tools/projects_create/input/limit/maximum", "maximum 100 removed"}}},
		{"format tightened", tools(tool("t", `"email":{"type":"string"}`)), tools(tool("t", `"email":{"type":"string","format":"email"}`)),
			[]change{{manifest.FormatTightened, true, "tools/t/input/email/format", `format "email" added`}}},
		{"format relaxed", tools(tool("t", `"email":{"type":"string","format":"email"}`)), tools(tool("t", `"email":{"type":"string"}`)),
			[]change{{manifest.FormatRelaxed, false, "tools/t/input/email/format", `format "email" removed`}}},
		{"object closed", tools(input(base, `{"type":"object"}`)), tools(input(base, `{"type":"object","additionalProperties":false}`)),
			[]change{{manifest.ObjectClosed, true, "tools/projects_create/input/additionalProperties", "fields the schema does not name are no longer accepted"}}},
		{"object opened", tools(input(base, `{"type":"object","additionalProperties":false}`)), tools(input(base, `{"type":"object"}`)),
			[]change{{manifest.ObjectOpened, false, "tools/projects_create/input/additionalProperties", "fields the schema does not name are now accepted"}}},
		{"schema changed", tools(tool("t", `"v":{"anyOf":[{"type":"string"},{"type":"integer"}]}`)), tools(tool("t", `"v":{"anyOf":[{"type":"string"}]}`)),
			[]change{{manifest.SchemaChanged, true, "tools/t/input/v", `"anyOf" changed from [{"type":"string"},{"type":"integer"}] to [{"type":"string"}]; review it`}}},
		{"default changed", tools(tool("t", `"n":{"type":"integer","default":10}`)), tools(tool("t", `"n":{"type":"integer","default":20}`)),
			[]change{{manifest.DefaultChanged, false, "tools/t/input/n/default", "default changed from 10 to 20"}}},
		{"nested array items", tools(tool("t", `"tags":{"type":"array","items":{"type":"string","maxLength":20}}`)), tools(tool("t", `"tags":{"type":"array","items":{"type":"string","maxLength":10}}`)),
			[]change{{manifest.RangeNarrowed, true, "tools/t/input/tags/[]/maxLength", "maxLength tightened from 20 to 10"}}},
		{"output removed", tools(outBase), tools(base),
			[]change{{manifest.OutputRemoved, true, "tools/projects_create/output", "output schema removed: clients reading structured content lose it"}}},
		{"output added", tools(base), tools(outBase),
			[]change{{manifest.OutputAdded, false, "tools/projects_create/output", "new output schema"}}},
		{"output field removed", tools(outBase), tools(output(base, `{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}`)),
			[]change{{manifest.FieldRemoved, true, "tools/projects_create/output/status", `field "status" removed: clients that read it get nothing`}}},
		{"output enum widened", tools(outBase), tools(output(base, `{"type":"object","properties":{"id":{"type":"string"},"status":{"type":"string","enum":["open","closed","archived"]}},"required":["id"]}`)),
			[]change{{manifest.EnumWidened, true, "tools/projects_create/output/status/enum", `"archived" now returned too`}}},
		{"output field may be missing", tools(outBase), tools(output(base, `{"type":"object","properties":{"id":{"type":"string"},"status":{"type":"string","enum":["open","closed"]}}}`)),
			[]change{{manifest.RequiredRemoved, true, "tools/projects_create/output/id", `field "id" may now be missing: clients that read it must cope`}}},
		{"became destructive", tools(base), tools(with(base, func(t *manifest.Tool) { t.Annotations = &manifest.Annotations{} })),
			[]change{{manifest.BecameDestructive, true, "tools/projects_create/annotations", "now destructive: clients that ran it without asking must ask"}}},
		{"became writing", tools(base), tools(with(base, func(t *manifest.Tool) {
			t.Annotations = &manifest.Annotations{DestructiveHint: new(false)}
		})),
			[]change{{manifest.BecameWriting, true, "tools/projects_create/annotations", "no longer read-only, it now writes: clients that ran it without asking must ask"}}},
		{"required but not described", tools(input(base, `{"type":"object"}`)), tools(input(base, `{"type":"object","required":["owner"]}`)),
			[]change{{manifest.RequiredAdded, true, "tools/projects_create/input/owner", `new required field "owner": calls without it are refused`}}},
		{"const beside an enum", tools(tool("t", `"cur":{"type":"string","enum":["EUR","USD"]}`)), tools(tool("t", `"cur":{"type":"string","enum":["EUR","USD"],"const":"EUR"}`)),
			[]change{{manifest.EnumNarrowed, true, "tools/t/input/cur/enum", `"USD" no longer accepted`}}},
		{"const outside the enum", tools(tool("t", `"cur":{"type":"string"}`)), tools(tool("t", `"cur":{"type":"string","enum":["EUR"],"const":"USD"}`)),
			[]change{{manifest.EnumNarrowed, true, "tools/t/input/cur/enum", "now limited to no value at all"}}},
		{"new field on an open object", tools(input(base, `{"type":"object"}`)), tools(input(base, `{"type":"object","properties":{"n":{"type":"integer"}}}`)),
			[]change{
				{manifest.FieldAdded, false, "tools/projects_create/input/n", `new optional field "n"`},
				{manifest.TypeNarrowed, true, "tools/projects_create/input/n/type", "type narrowed from any to integer"},
			}},
		{"task required", manifest.Manifest{Exposition: "flat", Actions: []manifest.Action{action}},
			manifest.Manifest{Exposition: "flat", Actions: []manifest.Action{withTask(action, true)}},
			[]change{{manifest.TaskRequired, true, "actions/projects.create/task", "now runs only as a task: 2026-07-28 clients that do not declare the tasks extension are refused"}}},
		{"task made required", manifest.Manifest{Actions: []manifest.Action{withTask(action, false)}}, manifest.Manifest{Actions: []manifest.Action{withTask(action, true)}},
			[]change{{manifest.TaskRequired, true, "actions/projects.create/task", "now runs only as a task: 2026-07-28 clients that do not declare the tasks extension are refused"}}},
		{"became a task", manifest.Manifest{Actions: []manifest.Action{action}}, manifest.Manifest{Actions: []manifest.Action{withTask(action, false)}},
			[]change{{manifest.TaskChanged, false, "actions/projects.create/task", "now runs as a task for clients that declare the tasks extension"}}},
		{"no longer only a task", manifest.Manifest{Actions: []manifest.Action{withTask(action, true)}}, manifest.Manifest{Actions: []manifest.Action{withTask(action, false)}},
			[]change{{manifest.TaskChanged, false, "actions/projects.create/task", "no longer only a task: clients without the tasks extension are answered directly"}}},
		{"no longer a task", manifest.Manifest{Actions: []manifest.Action{withTask(action, true)}}, manifest.Manifest{Actions: []manifest.Action{action}},
			[]change{{manifest.TaskChanged, false, "actions/projects.create/task", "no longer runs as a task: every client gets its result directly"}}},
		{"redaction removed", manifest.Manifest{Exposition: "flat", Actions: []manifest.Action{presented(action, invoicePresentation)}},
			manifest.Manifest{Exposition: "flat", Actions: []manifest.Action{action}},
			[]change{
				{manifest.RedactionRemoved, true, "actions/projects.create/presentation", "invoices[].card_number is no longer redacted: its value now reaches clients"},
				{manifest.RedactionRemoved, true, "actions/projects.create/presentation", "invoices[].note is no longer redacted: its value now reaches clients"},
			}},
		{"redaction added", manifest.Manifest{Actions: []manifest.Action{presented(action, &manifest.Presentation{Presenters: []string{"billing.Invoice"}})}},
			manifest.Manifest{Actions: []manifest.Action{presented(action, &manifest.Presentation{Presenters: []string{"billing.Invoice"}, Redacted: []string{"card"}})}},
			[]change{{manifest.RedactionAdded, false, "actions/projects.create/presentation", "now redacted: card"}}},
		{"marker made an omission", manifest.Manifest{Actions: []manifest.Action{presented(action, invoicePresentation)}},
			manifest.Manifest{Actions: []manifest.Action{presented(action, &manifest.Presentation{Presenters: []string{"billing.Invoice"},
				Omitted: []string{"invoices[].card_number", "invoices[].note"}, Limits: map[string]int{"invoices": 20}})}},
			[]change{{manifest.PresentationChanged, false, "actions/projects.create/presentation", "how results are presented changed (presenters, limits, or markers and omissions)"}}},
		{"limit changed", manifest.Manifest{Actions: []manifest.Action{presented(action, invoicePresentation)}},
			manifest.Manifest{Actions: []manifest.Action{presented(action, &manifest.Presentation{Presenters: []string{"billing.Invoice"},
				Redacted: []string{"invoices[].card_number"}, Omitted: []string{"invoices[].note"}, Limits: map[string]int{"invoices": 50}})}},
			[]change{{manifest.PresentationChanged, false, "actions/projects.create/presentation", "how results are presented changed (presenters, limits, or markers and omissions)"}}},
		{"annotation changed", tools(base), tools(with(base, func(t *manifest.Tool) {
			t.Annotations = &manifest.Annotations{ReadOnlyHint: true, DestructiveHint: new(false), IdempotentHint: true}
		})),
			[]change{{manifest.AnnotationChanged, false, "tools/projects_create/annotations",
				`annotations changed from {"destructiveHint":false,"idempotentHint":false,"readOnlyHint":true} to {"destructiveHint":false,"idempotentHint":true,"readOnlyHint":true}`}}},
		{"scope-free access removed", tools(base), tools(with(base, func(t *manifest.Tool) { t.Auth = &manifest.Auth{Required: true, Scopes: []string{"projects:write"}} })),
			[]change{{manifest.ScopeFreeRemoved, true, "tools/projects_create/auth", "scope-free access removed: callers now need projects:write"}}},
		{"scopes added", tools(with(base, func(t *manifest.Tool) { t.Auth = &manifest.Auth{Required: true, Scopes: []string{"a"}} })),
			tools(with(base, func(t *manifest.Tool) { t.Auth = &manifest.Auth{Required: true, Scopes: []string{"a", "b"}} })),
			[]change{{manifest.ScopesAdded, true, "tools/projects_create/auth", "callers now also need b"}}},
		{"scopes removed", tools(with(base, func(t *manifest.Tool) { t.Auth = &manifest.Auth{Required: true, Scopes: []string{"a"}} })), tools(base),
			[]change{{manifest.ScopesRemoved, false, "tools/projects_create/auth", "no scope needed any more"}}},
		{"description changed", tools(base), tools(with(base, func(t *manifest.Tool) { t.Description = "Create a project" })),
			[]change{{manifest.DescriptionChanged, false, "tools/projects_create/description", "description changed: what a model reads about it is new"}}},
		{"title changed", tools(base), tools(with(base, func(t *manifest.Tool) { t.Title = "New project" })),
			[]change{{manifest.TitleChanged, false, "tools/projects_create/title", `title changed from "" to "New project"`}}},
		{"meta changed", tools(base), tools(with(base, func(t *manifest.Tool) { t.Meta = json.RawMessage(`{"ui":"card"}`) })),
			[]change{{manifest.MetaChanged, false, "tools/projects_create", "_meta or icons changed"}}},
		{"action removed", manifest.Manifest{Actions: []manifest.Action{action}}, manifest.Manifest{},
			[]change{{manifest.ActionRemoved, true, "actions/projects.create", "action removed: calls to it will fail"}}},
		{"action added", manifest.Manifest{}, manifest.Manifest{Actions: []manifest.Action{action}},
			[]change{{manifest.ActionAdded, false, "actions/projects.create", "new action"}}},
		{"grouped action gains a required field", grouped(manifest.Manifest{Actions: []manifest.Action{action}}),
			grouped(manifest.Manifest{Actions: []manifest.Action{{Key: action.Key, Annotations: action.Annotations,
				InputSchema: tool("", nameProp+`,"owner":{"type":"string"}`, "name", "owner").InputSchema}}}),
			[]change{{manifest.RequiredAdded, true, "actions/projects.create/input/owner", `new required field "owner": calls without it are refused`}}},
		{"exposition changed", manifest.Manifest{Exposition: "flat"}, grouped(manifest.Manifest{}),
			[]change{{manifest.ExpositionChanged, false, "exposition", "tools were listed flat and are now listed grouped: every tool changes"}}},
		{"prompt removed", manifest.Manifest{Prompts: []manifest.Prompt{prompt}}, manifest.Manifest{},
			[]change{{manifest.PromptRemoved, true, "prompts/review", "prompt removed: getting it will fail"}}},
		{"prompt added", manifest.Manifest{}, manifest.Manifest{Prompts: []manifest.Prompt{prompt}},
			[]change{{manifest.PromptAdded, false, "prompts/review", "new prompt"}}},
		{"argument removed", manifest.Manifest{Prompts: []manifest.Prompt{prompt}}, manifest.Manifest{Prompts: []manifest.Prompt{{Name: "review"}}},
			[]change{{manifest.ArgumentRemoved, true, "prompts/review/arguments/code", `argument "code" removed: requests that give it are refused`}}},
		{"argument required", manifest.Manifest{Prompts: []manifest.Prompt{prompt}},
			manifest.Manifest{Prompts: []manifest.Prompt{{Name: "review", Arguments: []manifest.Argument{prompt.Arguments[0], {Name: "style", Required: true}}}}},
			[]change{{manifest.ArgumentRequired, true, "prompts/review/arguments/style", `new required argument "style": requests without it are refused`}}},
		{"argument added", manifest.Manifest{Prompts: []manifest.Prompt{prompt}},
			manifest.Manifest{Prompts: []manifest.Prompt{{Name: "review", Arguments: []manifest.Argument{prompt.Arguments[0], {Name: "style"}}}}},
			[]change{{manifest.ArgumentAdded, false, "prompts/review/arguments/style", `new optional argument "style"`}}},
		{"argument optional", manifest.Manifest{Prompts: []manifest.Prompt{prompt}},
			manifest.Manifest{Prompts: []manifest.Prompt{{Name: "review", Arguments: []manifest.Argument{{Name: "code"}}}}},
			[]change{{manifest.ArgumentOptional, false, "prompts/review/arguments/code", `argument "code" is now optional`}}},
		{"resource removed", manifest.Manifest{Resources: []manifest.Resource{resource}}, manifest.Manifest{},
			[]change{{manifest.ResourceRemoved, true, "resources/file:///readme", "resource removed: reading it will fail"}}},
		{"resource added", manifest.Manifest{}, manifest.Manifest{ResourceTemplates: []manifest.Resource{{URITemplate: "users://{id}", Name: "user"}}},
			[]change{{manifest.ResourceAdded, false, "resources/users://{id}", "new resource"}}},
		{"MIME type changed", manifest.Manifest{Resources: []manifest.Resource{resource}},
			manifest.Manifest{Resources: []manifest.Resource{{URI: resource.URI, Name: resource.Name, MIMEType: "text/html"}}},
			[]change{{manifest.MIMETypeChanged, true, "resources/file:///readme/mimeType", `MIME type changed from "text/markdown" to "text/html": readers parse another format`}}},
		{"workflow removed", flows(checkoutFlow), flows(),
			[]change{{manifest.WorkflowRemoved, true, "workflows/checkout", "workflow removed: its actions no longer move an instance"}}},
		{"workflow added", flows(), flows(checkoutFlow),
			[]change{{manifest.WorkflowAdded, false, "workflows/checkout", "new workflow"}}},
		{"transition removed, another added", flows(checkoutFlow), flows(flowWith(func(w *manifest.Workflow) {
			w.Transitions = []manifest.Transition{{From: "cart", Event: "checkout", To: "payment"}, {From: "payment", Event: "settle", To: "paid"}}
		})), []change{
			{manifest.TransitionRemoved, true, "workflows/checkout/payment --pay--> paid", `transition removed: "pay" no longer moves an instance from "payment" to "paid"`},
			{manifest.TransitionAdded, false, "workflows/checkout/payment --settle--> paid", "new transition"},
		}},
		{"workflow keyed otherwise", flows(checkoutFlow), flows(flowWith(func(w *manifest.Workflow) { w.Keyed = "session" })),
			[]change{{manifest.WorkflowChanged, true, "workflows/checkout", "instances are keyed by session, not by handle"}}},
		{"action gated in fewer states", gated(&manifest.Binding{Workflow: "checkout", States: []string{"cart", "payment"}, Fires: "cancel"}),
			gated(&manifest.Binding{Workflow: "checkout", States: []string{"cart"}, Fires: "cancel"}),
			[]change{{manifest.GateNarrowed, true, "actions/cart.cancel/workflow", "no longer runs in payment"}}},
		{"action gated in more states", gated(&manifest.Binding{Workflow: "checkout", States: []string{"cart"}}),
			gated(&manifest.Binding{Workflow: "checkout", States: []string{"cart", "payment"}}),
			[]change{{manifest.GateWidened, false, "actions/cart.cancel/workflow", "now runs in payment too"}}},
		{"action newly gated", gated(nil), gated(&manifest.Binding{Workflow: "checkout", States: []string{"cart"}}),
			[]change{{manifest.GateNarrowed, true, "actions/cart.cancel/workflow", `now gated by the workflow "checkout": calls outside its states are refused`}}},
		{"server card removed", carded(weatherCard), carded(nil),
			[]change{{manifest.CardRemoved, true, "server-card", "the server card is no longer served: clients and registries that find the server by it lose it"}}},
		{"server card added", carded(nil), carded(weatherCard),
			[]change{{manifest.CardAdded, false, "server-card", "new server card"}}},
		{"server card renamed, a remote gone and another added", carded(weatherCard), carded(cardWith(func(c *servercard.Card) {
			c.Name = "com.example/forecast"
			c.Remotes = []servercard.Remote{{Type: "streamable-http", URL: "https://eu.example.com/mcp", SupportedProtocolVersions: []string{"2026-07-28"}}}
		})), []change{
			{manifest.CardChanged, true, "server-card/name", `the card's name changed from "com.example/weather" to "com.example/forecast": registries know the server by it`},
			{manifest.RemoteAdded, false, "server-card/remotes/https://eu.example.com/mcp", "new remote"},
			{manifest.RemoteRemoved, true, "server-card/remotes/https://mcp.example.com/mcp", "remote removed: clients that connect there fail"},
		}},
		{"a remote's revisions", carded(weatherCard), carded(cardWith(func(c *servercard.Card) {
			c.Remotes = []servercard.Remote{{Type: "streamable-http", URL: "https://mcp.example.com/mcp", SupportedProtocolVersions: []string{"2026-07-28", "2026-12-01"}}}
		})), []change{
			{manifest.RevisionAdded, false, "server-card/remotes/https://mcp.example.com/mcp", "now speaks MCP 2026-12-01 too"},
			{manifest.RevisionRemoved, true, "server-card/remotes/https://mcp.example.com/mcp", "no longer speaks MCP 2025-11-25: clients of that revision fail"},
		}},
		{"group removed", manifest.Manifest{Groups: []manifest.Group{{FQN: "user-facing", Kind: "category"}}}, manifest.Manifest{},
			[]change{{manifest.GroupRemoved, false, "groups/user-facing", "category removed from the model"}}},
		{"group added", manifest.Manifest{}, manifest.Manifest{Groups: []manifest.Group{{FQN: "admin", Kind: "tool"}}},
			[]change{{manifest.GroupAdded, false, "groups/admin", "new tool"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			var got []change
			for _, c := range manifest.Diff(tc.old, tc.new) {
				got = append(got, change{c.Kind, c.Breaking, c.Path, c.Reason})
			}
			is.Equal(got, tc.want)
			is.Equal(manifest.Breaking(manifest.Diff(tc.old, tc.new)), slices.ContainsFunc(tc.want, func(c change) bool { return c.breaking }))
			for _, c := range tc.want {
				covered[c.kind] = true
			}
		})
	}
	// Every kind declared in kinds.go is covered by a row above.
	for _, k := range declaredKinds(t) {
		if !covered[k] {
			t.Errorf("no row of TestDiff covers the kind %q", k)
		}
	}
}

var covered = map[manifest.Kind]bool{}

var weatherCard = &servercard.Card{Schema: servercard.SchemaURL, Name: "com.example/weather", Version: "1.0.0", Description: "Forecasts",
	Remotes: []servercard.Remote{{Type: "streamable-http", URL: "https://mcp.example.com/mcp", SupportedProtocolVersions: []string{"2026-07-28", "2025-11-25"}}}}

func carded(c *servercard.Card) manifest.Manifest { return manifest.Manifest{ServerCard: c} }

func cardWith(f func(*servercard.Card)) *servercard.Card {
	c := *weatherCard
	f(&c)
	return &c
}

var checkoutFlow = manifest.Workflow{Name: "checkout", Initial: "cart", Keyed: "handle", Finals: []string{"paid"},
	Transitions: []manifest.Transition{{From: "cart", Event: "checkout", To: "payment"}, {From: "payment", Event: "pay", To: "paid"}}}

func flows(ws ...manifest.Workflow) manifest.Manifest { return manifest.Manifest{Workflows: ws} }

func flowWith(f func(*manifest.Workflow)) manifest.Workflow {
	w := checkoutFlow
	w.Transitions = slices.Clone(w.Transitions)
	f(&w)
	return w
}

// gated is a manifest whose one action has the binding b.
func gated(b *manifest.Binding) manifest.Manifest {
	return manifest.Manifest{Exposition: "flat", Actions: []manifest.Action{{Key: "cart.cancel", Workflow: b}}}
}

// declaredKinds reads the Kind constants of kinds.go.
func declaredKinds(t *testing.T) []manifest.Kind {
	f, err := parser.ParseFile(token.NewFileSet(), "kinds.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []manifest.Kind
	ast.Inspect(f, func(n ast.Node) bool {
		if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			s, _ := strconv.Unquote(lit.Value)
			out = append(out, manifest.Kind(s))
		}
		return true
	})
	return out
}

// TestDiffOfLargeEnums diffs two input schemas of 1 MB whose enums of
// 90,000 values share half. The enums were compared value by value
// against a list, quadratically: 44 s for this pair. As sets they take
// 0.2 s (1 s under -race); the bound leaves room for a slow machine.
func TestDiffOfLargeEnums(t *testing.T) {
	is := is.New(t)
	enum := func(from int) string {
		var b strings.Builder
		for i := from; i < from+90000; i++ {
			if i > from {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `"v%07d"`, i)
		}
		return `"e":{"type":"string","enum":[` + b.String() + `]}`
	}
	old, new := tools(tool("t", enum(0))), tools(tool("t", enum(45000)))
	start := time.Now()
	changes := manifest.Diff(old, new)
	elapsed := time.Since(start)
	is.Equal(len(changes), 2) // values removed, values added
	is.True(strings.HasPrefix(changes[0].Reason, `"v0000000", "v0000001"`))
	if elapsed > 20*time.Second {
		t.Fatalf("Diff took %v", elapsed)
	}
	t.Logf("Diff of two %d-byte input schemas: %v", len(old.Tools[0].InputSchema), elapsed)
}

// TestLockPinsTheServerCard: the lockfile pins the card by its name and
// remotes, so that a removed remote or revision drifts, and a new
// version of the server does not.
func TestLockPinsTheServerCard(t *testing.T) {
	is := is.New(t)
	pinned := manifest.LockOf(carded(weatherCard))
	is.Equal(len(pinned.ServerCard), 1)
	is.Equal(len(manifest.Check(pinned, manifest.LockOf(carded(cardWith(func(c *servercard.Card) { c.Version = "2.0.0" }))))), 0)
	drift := manifest.Check(pinned, manifest.LockOf(carded(cardWith(func(c *servercard.Card) {
		c.Remotes = []servercard.Remote{{Type: "streamable-http", URL: "https://mcp.example.com/mcp", SupportedProtocolVersions: []string{"2026-07-28"}}}
	}))))
	is.Equal(len(drift), 1)
	is.Equal(drift[0].String(), "serverCard com.example/weather changed")
}
