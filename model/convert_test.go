package model_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/model"
)

// gen makes random wire values: the property tests below convert each to
// the model and back and expect nothing lost.
type gen struct{ r *rand.Rand }

func (g gen) str() string {
	if g.r.IntN(4) == 0 {
		return ""
	}
	const letters = "abcXYZ_-. é<&>\"\\"
	b := make([]rune, 1+g.r.IntN(12))
	runes := []rune(letters)
	for i := range b {
		b[i] = runes[g.r.IntN(len(runes))]
	}
	return string(b)
}

func (g gen) boolPtr() *bool {
	switch g.r.IntN(3) {
	case 0:
		return nil
	case 1:
		return new(true)
	}
	return new(false)
}

// value is a random JSON value as encoding/json decodes one into any.
func (g gen) value(depth int) any {
	switch n := g.r.IntN(7); {
	case n == 0:
		return nil
	case n == 1:
		return g.r.IntN(2) == 0
	case n == 2:
		return float64(g.r.IntN(1000)) / 4
	case n == 3 || depth == 0:
		return g.str()
	case n == 4:
		xs := make([]any, g.r.IntN(4))
		for i := range xs {
			xs[i] = g.value(depth - 1)
		}
		return xs
	default:
		return g.object(depth - 1)
	}
}

func (g gen) object(depth int) map[string]any {
	m := map[string]any{}
	for range g.r.IntN(4) {
		m[g.str()] = g.value(depth)
	}
	return m
}

func (g gen) meta() mcp.Meta {
	if g.r.IntN(3) == 0 {
		return nil
	}
	return g.object(2)
}

func (g gen) icons() []mcp.Icon {
	if g.r.IntN(3) == 0 {
		return nil
	}
	out := make([]mcp.Icon, g.r.IntN(3))
	for i := range out {
		out[i] = mcp.Icon{Source: g.str(), MIMEType: g.str(), Theme: mcp.IconTheme(g.str())}
		if g.r.IntN(2) == 0 {
			out[i].Sizes = []string{g.str(), g.str()}
		}
	}
	return out
}

func (g gen) schema() any {
	switch g.r.IntN(4) {
	case 0:
		return nil
	case 1:
		return json.RawMessage(`{"type":"object","properties":{"a":{"type":"string"}}}`)
	}
	s := g.object(3)
	s["type"] = "object"
	return s
}

func (g gen) annotations() *mcp.ToolAnnotations {
	if g.r.IntN(4) == 0 {
		return nil
	}
	return &mcp.ToolAnnotations{
		Title:           g.str(),
		ReadOnlyHint:    g.r.IntN(2) == 0,
		DestructiveHint: g.boolPtr(),
		IdempotentHint:  g.r.IntN(2) == 0,
		OpenWorldHint:   g.boolPtr(),
	}
}

func (g gen) tool() *mcp.Tool {
	return &mcp.Tool{
		Meta: g.meta(), Annotations: g.annotations(), Description: g.str(), InputSchema: g.schema(),
		Name: g.str(), OutputSchema: g.schema(), Title: g.str(), Icons: g.icons(),
	}
}

func (g gen) prompt() *mcp.Prompt {
	p := &mcp.Prompt{Meta: g.meta(), Description: g.str(), Name: g.str(), Title: g.str(), Icons: g.icons()}
	if g.r.IntN(3) > 0 {
		p.Arguments = make([]*mcp.PromptArgument, g.r.IntN(3))
		for i := range p.Arguments {
			p.Arguments[i] = &mcp.PromptArgument{Name: g.str(), Title: g.str(), Description: g.str(), Required: g.r.IntN(2) == 0}
		}
	}
	return p
}

func (g gen) resourceAnnotations() *mcp.Annotations {
	if g.r.IntN(3) == 0 {
		return nil
	}
	a := &mcp.Annotations{LastModified: g.str(), Priority: float64(g.r.IntN(5)) / 4}
	if g.r.IntN(2) == 0 {
		a.Audience = []mcp.Role{"user", "assistant"}[:g.r.IntN(3)]
	}
	return a
}

func (g gen) resource() *mcp.Resource {
	return &mcp.Resource{
		Meta: g.meta(), Annotations: g.resourceAnnotations(), Description: g.str(), MIMEType: g.str(),
		Name: g.str(), Size: g.r.Int64N(1 << 40), Title: g.str(), URI: g.str(), Icons: g.icons(),
	}
}

func (g gen) template() *mcp.ResourceTemplate {
	return &mcp.ResourceTemplate{
		Meta: g.meta(), Annotations: g.resourceAnnotations(), Description: g.str(), MIMEType: g.str(),
		Name: g.str(), Title: g.str(), URITemplate: g.str(), Icons: g.icons(),
	}
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// roundTrip checks, for n random wire values, that converting to the model
// and back gives the same JSON and the same Go value (schemas aside, which
// come back as json.RawMessage).
func roundTrip[W any](t *testing.T, n int, make func(gen) *W, there func(*W) *W, strip func(*W)) {
	t.Helper()
	for seed := range uint64(n) {
		g := gen{rand.New(rand.NewPCG(seed, 17))}
		w := make(g)
		back := there(w)
		if w == nil || back == nil {
			if w != back {
				t.Fatalf("seed %d: nil became %v", seed, back)
			}
			continue
		}
		if got, want := jsonOf(t, back), jsonOf(t, w); got != want {
			t.Fatalf("seed %d: JSON differs after the round trip:\n got %s\nwant %s", seed, got, want)
		}
		if strip != nil {
			strip(w)
			strip(back)
		}
		if got, want := fmt.Sprintf("%#v", *back), fmt.Sprintf("%#v", *w); jsonOf(t, back) != jsonOf(t, w) || !deepEqual(back, w) {
			t.Fatalf("seed %d: value differs after the round trip:\n got %s\nwant %s", seed, got, want)
		}
	}
}

func TestToolRoundTrip(t *testing.T) {
	roundTrip(t, 2000, gen.tool,
		func(w *mcp.Tool) *mcp.Tool { return model.ToolToWire(model.ToolFromWire(w)) },
		func(w *mcp.Tool) { w.InputSchema, w.OutputSchema = nil, nil })
}

func TestPromptRoundTrip(t *testing.T) {
	roundTrip(t, 2000, gen.prompt, func(w *mcp.Prompt) *mcp.Prompt { return model.PromptToWire(model.PromptFromWire(w)) }, nil)
}

func TestResourceRoundTrip(t *testing.T) {
	roundTrip(t, 2000, gen.resource, func(w *mcp.Resource) *mcp.Resource { return model.ResourceToWire(model.ResourceFromWire(w)) }, nil)
}

func TestTemplateRoundTrip(t *testing.T) {
	roundTrip(t, 2000, gen.template, func(w *mcp.ResourceTemplate) *mcp.ResourceTemplate {
		return model.TemplateToWire(model.TemplateFromWire(w))
	}, nil)
}

func TestAnnotationsRoundTrip(t *testing.T) {
	roundTrip(t, 500, gen.annotations, func(w *mcp.ToolAnnotations) *mcp.ToolAnnotations {
		return model.AnnotationsToWire(model.AnnotationsFromWire(w))
	}, nil)
}

func TestConvertersKeepNil(t *testing.T) {
	is := is.New(t)
	is.True(model.ToolFromWire(nil) == nil)
	is.True(model.ToolToWire(nil) == nil)
	is.True(model.PromptFromWire(nil) == nil)
	is.True(model.ResourceToWire(nil) == nil)
	is.True(model.TemplateFromWire(nil) == nil)
	is.True(model.AnnotationsFromWire(nil) == nil)
	is.True(model.AnnotationsToWire(nil) == nil)
}

func TestBatchesDropNils(t *testing.T) {
	is := is.New(t)
	tools := model.ToolsFromWire([]*mcp.Tool{nil, {Name: "a"}, nil, {Name: "b"}})
	is.Equal(len(tools), 2)
	is.Equal(tools[1].Name(), "b")
	wire := model.ToolsToWire([]*model.Tool{nil, tools[0], nil})
	is.Equal(len(wire), 1)
	is.Equal(wire[0].Name, "a")
	is.True(model.ToolsFromWire(nil) == nil)

	res := model.ResourcesFromWire([]*mcp.Resource{{URI: "file:///a", Name: "a"}, nil})
	tpl := model.TemplatesFromWire([]*mcp.ResourceTemplate{nil, {URITemplate: "users://{id}", Name: "user"}})
	mixed := append(res, tpl...)
	is.Equal(len(model.ResourcesToWire(mixed)), 1) // the template is not an *mcp.Resource
	is.Equal(len(model.TemplatesToWire(mixed)), 1) // the static resource is not a template
	is.Equal(model.TemplatesToWire(mixed)[0].URITemplate, "users://{id}")

	args := model.PromptArgumentsFromWire([]*mcp.PromptArgument{nil, {Name: "code", Required: true}})
	is.Equal(len(args), 1)
	is.True(args[0].Required())
	is.Equal(len(model.PromptsToWire([]*model.Prompt{nil})), 0)
}

// TestEntitiesAreImmutable changes what accessors return and what the
// converter was given, and finds the entity unchanged.
func TestEntitiesAreImmutable(t *testing.T) {
	is := is.New(t)
	w := &mcp.Tool{
		Name: "search", InputSchema: json.RawMessage(`{"type":"object"}`),
		Meta:        mcp.Meta{"k": map[string]any{"deep": "v"}},
		Icons:       []mcp.Icon{{Source: "https://x/icon.png", Sizes: []string{"48x48"}}},
		Annotations: &mcp.ToolAnnotations{DestructiveHint: new(false)},
	}
	tool := model.ToolFromWire(w)
	before := jsonOf(t, model.ToolToWire(tool))

	w.InputSchema.(json.RawMessage)[2] = 'X'
	w.Meta["k"].(map[string]any)["deep"] = "changed"
	w.Icons[0].Sizes[0] = "1x1"
	*w.Annotations.DestructiveHint = true
	tool.InputSchema()[0] = '['
	tool.Meta()["k"].(map[string]any)["deep"] = "changed"
	tool.Icons()[0].Sizes[0] = "2x2"
	ann := tool.Annotations()
	ann.Destructive = model.Yes

	is.Equal(jsonOf(t, model.ToolToWire(tool)), before)
	is.Equal(tool.Annotations().Destructive, model.No)
}

func TestAnnotationDefaults(t *testing.T) {
	is := is.New(t)
	is.True(model.Annotations{}.IsDestructive())                       // unset means true
	is.True(!model.Annotations{ReadOnly: true}.IsDestructive())        // read-only is never destructive
	is.True(!model.Annotations{Destructive: model.No}.IsDestructive()) // said false
	is.True(model.Annotations{}.IsOpenWorld())                         // unset means true
	is.True(!model.Annotations{OpenWorld: model.No}.IsOpenWorld())     // said false
	is.Equal(model.Unset.String()+model.Yes.String()+model.No.String(), "unsettruefalse")
}
