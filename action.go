package vurb

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/engine"
	"github.com/vurb-go/vurb/schema"
	"github.com/vurb-go/vurb/workflow"
)

// Namespace is where an action is declared: the App (with a dotted name
// such as "projects.list"), a Tool (with the action's own name) or a Group.
// It is the first argument of Query, Action and Mutation, so that one
// generic function declares at every level. Only vurb's own types
// implement it.
type Namespace interface {
	namespace() namespace
}

// namespace is the unexported side of Namespace: where the ActionDef
// lands, and the app whose options decide how its input is compiled.
type namespace interface {
	add(a *ActionDef)
	owner() *App
}

func (a *App) namespace() namespace   { return appNamespace{a} }
func (t *Tool) namespace() namespace  { return t }
func (g *Group) namespace() namespace { return g }

// appNamespace resolves dotted names given to the app.
type appNamespace struct{ app *App }

func (s appNamespace) owner() *App { return s.app }
func (t *Tool) owner() *App        { return t.app }
func (g *Group) owner() *App       { return g.tool.app }

func (s appNamespace) add(a *ActionDef) {
	target, name := s.app.namespaceFor(a.name)
	a.name = name
	target.add(a)
}

// semantics is what an action does to the world, as its builder declared.
type semantics int

const (
	semAction semantics = iota
	semQuery
	semMutation
)

// ActionDef is one declared action. Its methods refine it until the app is
// built; they return the ActionDef so they chain.
type ActionDef struct {
	tool  *Tool
	group *Group
	name  string // the action's own name ("list")
	key   string // its key within the tool ("list" or "users.list")

	sem         semantics
	description string
	title       string
	tags        []string
	scopes      []string
	idempotent  bool
	openWorld   *bool
	annotations *mcp.ToolAnnotations
	middleware  []Middleware
	timeout     time.Duration
	cache       CacheControl
	invalidates []string
	headers     map[string]string // input field -> Mcp-Param header name
	limits      limitSet          // limits.go
	alwaysLoad  bool              // search.go
	hint        string
	isFinder    bool
	// The workflow binding (workflow.go).
	flowMachine *workflow.Machine
	flowStates  []string
	flowEvent   string
	flowStarts  bool

	codec        *schema.Codec   // of the input struct
	outputSchema json.RawMessage // nil when Out has none
	decode       engine.Decoder
	endpoint     Handler // the typed handler adapted to Handler

	// outType and presentWith let Build present the results
	// (presenter_action.go).
	outType     reflect.Type
	presentWith func(*presentedAction) Handler
	presented   *presentedAction // set at Build, nil when nothing presents its results
}

// Query declares a read-only action: readOnlyHint true, destructiveHint
// false. In and Out are inferred from handler; a handler without input
// takes struct{}.
func Query[In, Out any](ns Namespace, name string, handler func(ctx context.Context, in In) (Out, error)) *ActionDef {
	return declare(ns, name, semQuery, handler)
}

// Action declares an action that changes state without destroying any:
// neither read-only nor destructive (a create, a send).
func Action[In, Out any](ns Namespace, name string, handler func(ctx context.Context, in In) (Out, error)) *ActionDef {
	return declare(ns, name, semAction, handler)
}

// Mutation declares a destructive action (delete, overwrite, revoke):
// destructiveHint true, and flagged in descriptions so a model thinks twice.
func Mutation[In, Out any](ns Namespace, name string, handler func(ctx context.Context, in In) (Out, error)) *ActionDef {
	return declare(ns, name, semMutation, handler)
}

func declare[In, Out any](ns Namespace, name string, sem semantics, handler func(context.Context, In) (Out, error)) *ActionDef {
	if ns == nil || reflect.ValueOf(ns).IsNil() {
		panic(fmt.Sprintf("vurb: action %q: nil namespace; pass the app, a tool or a group", name))
	}
	if handler == nil {
		panic(fmt.Sprintf("vurb: action %q: nil handler", name))
	}
	sc := ns.namespace()
	app := sc.owner()
	codec, decode := decoderFor[In](app, name)
	a := &ActionDef{name: name, sem: sem, codec: codec, decode: decode}
	if out, ok := app.cfg.validator.OutputSchema(reflect.TypeFor[Out]()); ok {
		a.outputSchema = out
	}
	sc.add(a)
	a.endpoint = adapt(handler, app.cfg.resultFormat)
	a.outType = reflect.TypeFor[Out]()
	a.presentWith = func(pa *presentedAction) Handler { return adaptPresented(handler, pa) }
	return a
}

// Describe sets the action's description, shown to the model.
func (a *ActionDef) Describe(description string) *ActionDef {
	a.mustBeMutable()
	a.description = description
	return a
}

// Title sets the human-readable title (annotations.title and the tool
// title in flat exposition).
func (a *ActionDef) Title(title string) *ActionDef {
	a.mustBeMutable()
	a.title = title
	return a
}

// Tags adds tags to the action, for tag filtering. In flat exposition a
// filter applies per action.
func (a *ActionDef) Tags(tags ...string) *ActionDef {
	a.mustBeMutable()
	a.tags = append(a.tags, tags...)
	return a
}

// Idempotent marks the action as safe to repeat with the same arguments
// (idempotentHint). It is opt-in: vurb cannot know it.
func (a *ActionDef) Idempotent() *ActionDef {
	a.mustBeMutable()
	a.idempotent = true
	return a
}

// OpenWorld states whether the action reaches outside the server's own
// domain (the web, a third-party API): openWorldHint.
func (a *ActionDef) OpenWorld(open bool) *ActionDef {
	a.mustBeMutable()
	a.openWorld = &open
	return a
}

// Annotations replaces the action's annotations with ann, verbatim: the
// explicit override of everything its builder implied.
func (a *ActionDef) Annotations(ann *mcp.ToolAnnotations) *ActionDef {
	a.mustBeMutable()
	a.annotations = ann
	return a
}

// Use appends action middleware, the innermost layer.
func (a *ActionDef) Use(mw ...Middleware) *ActionDef {
	a.mustBeMutable()
	a.middleware = append(a.middleware, checkMiddleware(fmt.Sprintf("action %q", a.key), mw)...)
	return a
}

// Timeout sets the action's deadline, overriding its tool's and the app's.
func (a *ActionDef) Timeout(d time.Duration) *ActionDef {
	a.mustBeMutable()
	a.timeout = d
	return a
}

// Cached marks the action's results as immutable (see Immutable).
func (a *ActionDef) Cached() *ActionDef {
	a.mustBeMutable()
	a.cache = Immutable
	return a
}

// Stale marks the action's results as never reusable (see NoStore).
func (a *ActionDef) Stale() *ActionDef {
	a.mustBeMutable()
	a.cache = NoStore
	return a
}

// Invalidates declares the key patterns ("tasks.*", "sprints.**") whose
// earlier results a successful call of this action makes stale. The model
// is told so in the call's result.
func (a *ActionDef) Invalidates(patterns ...string) *ActionDef {
	a.mustBeMutable()
	mustPatterns(patterns, fmt.Sprintf("action %q", a.key))
	a.invalidates = append(a.invalidates, patterns...)
	return a
}

func (a *ActionDef) mustBeMutable() {
	if a.tool != nil {
		a.tool.mustBeMutable()
	}
}

// canonicalKey is the dotted key policies and logs use: tool.action or
// tool.group.action.
func (a *ActionDef) canonicalKey() string {
	if a.key == "" { // a tool that is one action
		return a.tool.name
	}
	return a.tool.name + "." + a.key
}

// InputSchema gives an action whose handler takes json.RawMessage or
// map[string]any its input schema: codec, the Codec of a JSON Schema
// written by hand, as a team porting an existing tool catalogue has it.
// jsonschema.MustCodec(doc), of package
// github.com/vurb-go/vurb/schema/jsonschema, makes one: vurb publishes doc
// as given (whitespace removed) and checks every call against it before
// the handler runs; a refused call reads one issue per failed keyword, at
// the value's path. The validator lives in that package so that only apps
// with hand-written schemas link it.
//
// It panics, naming the action, when the handler takes a struct (whose
// schema comes from its tags) or codec is not of a hand-written schema
// (schema.CodecFromSchema). An action that takes raw input and is never
// given a schema makes Build panic, saying to call InputSchema. In a
// grouped tool, the schema must be closed ("additionalProperties": false)
// and refer only to its own $defs.
func (a *ActionDef) InputSchema(codec *schema.Codec) *ActionDef {
	a.mustBeMutable()
	t := a.codec.Type()
	if !rawInput(t) {
		panic(fmt.Sprintf("vurb: action %q: InputSchema is for handlers that take json.RawMessage or map[string]any; "+
			"the schema of %s comes from its struct tags", a.canonicalKey(), t))
	}
	if codec == nil || codec.Type() != typeRawMessage {
		panic(fmt.Sprintf("vurb: action %q: InputSchema takes the Codec of a hand-written schema, "+
			"such as jsonschema.MustCodec(doc) makes", a.canonicalKey()))
	}
	a.codec, a.decode = codec, rawDecoder(codec, t)
	return a
}

// Hand-written input schemas: an action whose handler takes
// json.RawMessage or map[string]any has no struct to reflect, so its author
// supplies the JSON Schema (InputSchema). vurb publishes it as given and
// checks every call against it before the handler runs.

var (
	typeRawMessage = reflect.TypeFor[json.RawMessage]()
	typeMapAny     = reflect.TypeFor[map[string]any]()
)

// rawInput reports whether t is an input type that takes a hand-written
// schema.
func rawInput(t reflect.Type) bool { return t == typeRawMessage || t == typeMapAny }

// rawInputName names a raw input type as its user wrote it: from Go 1.27
// json.RawMessage is an alias whose reflected name is jsontext.Value.
func rawInputName(t reflect.Type) string {
	if t == typeRawMessage {
		return "json.RawMessage"
	}
	return t.String()
}

// rawDecoder decodes a call's arguments with codec into a new value of t,
// json.RawMessage or map[string]any, as the adapted handler expects it.
func rawDecoder(codec *schema.Codec, t reflect.Type) engine.Decoder {
	if t == typeMapAny {
		return func(data []byte, opts schema.DecodeOptions) (any, error) {
			m := new(map[string]any)
			if err := codec.Decode(data, m, opts); err != nil {
				return nil, err
			}
			return m, nil
		}
	}
	return func(data []byte, opts schema.DecodeOptions) (any, error) {
		raw := new(json.RawMessage)
		if err := codec.Decode(data, raw, opts); err != nil {
			return nil, err
		}
		return raw, nil
	}
}

// Header mirrors the input field (its JSON name) into the HTTP header
// Mcp-Param-<name> for clients of revision 2026-07-28 over streamable
// HTTP: the schema marks the property "x-mcp-header", clients copy the
// argument into the header, and the server refuses a request whose header
// and body disagree, so gateways and load balancers can route on the value
// without reading the body. The field must be a string, number, integer or
// boolean; name is an HTTP token (letters, digits, '-').
func (a *ActionDef) Header(field, name string) *ActionDef {
	a.mustBeMutable()
	if why := checkHeaderName(name); why != "" {
		panic(fmt.Sprintf("vurb: action %q: header name %q: %s", a.name, name, why))
	}
	i := slices.IndexFunc(a.codec.Fields(), func(f schema.Field) bool { return f.Name == field })
	if i < 0 {
		panic(fmt.Sprintf("vurb: action %q has no input field %q to mirror into header %q", a.name, field, name))
	}
	switch t := a.codec.Fields()[i].Type; t {
	case "string", "number", "integer", "boolean":
	default:
		panic(fmt.Sprintf("vurb: action %q: field %q is of type %q; only strings, numbers and booleans can be mirrored into a header",
			a.name, field, t))
	}
	if a.headers == nil {
		a.headers = map[string]string{}
	}
	a.headers[field] = name
	return a
}

func checkHeaderName(name string) string {
	if name == "" {
		return "it is empty"
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
			return fmt.Sprintf("it contains %q; only A-Z, a-z, 0-9 and '-' are allowed", c)
		}
	}
	return ""
}
