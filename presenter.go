package vurb

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/engine"
	"github.com/vurb-go/vurb/internal/presenter"
	"github.com/vurb-go/vurb/model"
)

// Presenters are declared here; internal/presenter compiles them at
// Build into the shapes of the app's result types, writes each presented
// result and the block the model reads after it.

// Suggestion is an action a presenter suggests the model call next, with
// why. Action is the canonical dotted key ("billing.pay",
// "admin.users.ban"), whatever the app's exposition: vurb writes it as the
// model must call it (the flat wire name, or the grouped tool with its
// discriminator), and drops it when the caller is not shown that action.
// Reason says why, in a few words the model reads after the call; Args
// are arguments to call it with, written out for the model (nil for
// none).
type Suggestion = presenter.Suggestion

// Presenter shapes every value of type T a handler returns, wherever T
// appears in the result: alone, in a slice or a map, behind a pointer, as
// a field of another type, or held by an interface. It decides what of T
// leaves the server (Redact, Omit, Limit) and what travels with it to the
// model (Rules, RulesFor, Suggest). Declare it once and give it to the
// app with Present: every action applies it without opting in.
//
// The rules and suggestions of every presented value of a result reach
// the model once, in a text block after the data, deduplicated; a client
// that reads only structuredContent gets the data alone. Rules and
// suggestions see each value whole, before redaction; what is sent never
// holds a redacted value, in structuredContent or in text, and the action's
// outputSchema says so.
//
// A type that marshals itself (MarshalJSON or MarshalText) is written by
// its method, which vurb cannot look into: Build refuses a result type
// holding, beneath such a type, a field a presenter or a redact tag
// redacts, and a call whose value reveals one there (behind an interface)
// fails rather than send it.
//
// A Presenter is configured before the app is built and frozen with it;
// its methods panic afterwards. T must be a struct type.
type Presenter[T any] struct {
	def      *presenterDef
	rulesFor []func(T) []string
	suggest  []func(T) []Suggestion
}

// AnyPresenter is a Presenter of any type: what Present takes. Only
// *Presenter implements it.
type AnyPresenter interface {
	presenter() *presenterDef
}

// presenterDef is a presenter without its type parameter: what the
// build compiles into shapes and the writer calls.
type presenterDef = presenter.Def

// NewPresenter returns an empty presenter of T, to configure with its
// methods and give to Present. It panics unless T is a struct type.
func NewPresenter[T any]() *Presenter[T] {
	t := reflect.TypeFor[T]()
	if t.Kind() != reflect.Struct {
		hint := ""
		if t.Kind() == reflect.Pointer {
			hint = fmt.Sprintf(": use NewPresenter[%s](), which applies behind pointers too", t.Elem())
		}
		panic(fmt.Sprintf("vurb: NewPresenter[%s]: a presenter presents a struct type%s", t, hint))
	}
	p := &Presenter[T]{}
	p.def = presenter.New(t, p.observe)
	return p
}

// Rules adds rules the model reads with any result holding a T, once per
// result: how to read T's fields ("amount_cents is in cents: divide by 100
// before showing it"), what to say or not say about it.
func (p *Presenter[T]) Rules(rules ...string) *Presenter[T] {
	p.mustBeMutable("Rules")
	p.def.AddRules(rules)
	return p
}

// RulesFor adds rules computed from each T a result holds ("invoice 42 is
// overdue: say so first"); fn returns nil for none. A rule several values
// give is written once.
func (p *Presenter[T]) RulesFor(fn func(v T) []string) *Presenter[T] {
	p.mustBeMutable("RulesFor")
	if fn == nil {
		panic(fmt.Sprintf("vurb: Presenter[%s].RulesFor: nil function", p.def.Type()))
	}
	p.rulesFor = append(p.rulesFor, fn)
	return p
}

// Suggest adds the actions to suggest for each T a result holds ("the
// invoice is open: billing.pay"); fn returns nil for none. Each
// suggestion is written once per result, as the model must call it, and
// only when the caller is shown its action (tag filters, WithVisibility,
// scopes); a suggestion naming no action of the app is dropped and logged.
func (p *Presenter[T]) Suggest(fn func(v T) []Suggestion) *Presenter[T] {
	p.mustBeMutable("Suggest")
	if fn == nil {
		panic(fmt.Sprintf("vurb: Presenter[%s].Suggest: nil function", p.def.Type()))
	}
	p.suggest = append(p.suggest, fn)
	p.def.SetSuggests()
	return p
}

// Limit keeps at most n elements of any slice or array of T (or of *T) in
// a result, the first n, and tells the model how many were left out and
// which of the action's input fields narrow the query: those tagged
// filter:"true", or else every optional one. n must be positive.
func (p *Presenter[T]) Limit(n int) *Presenter[T] {
	p.mustBeMutable("Limit")
	if n <= 0 {
		panic(fmt.Sprintf("vurb: Presenter[%s].Limit(%d): give the number of elements to keep, at least 1", p.def.Type(), n))
	}
	p.def.SetLimit(n)
	return p
}

// Redact replaces the values of T's fields (by JSON name, promoted fields
// included) with the presenter's marker in every answer. A struct tag
// redact:"true" on a field does the same without a presenter; on a field
// of an action's input, the tag keeps what was sent in it out of the
// validation messages, and so out of logs and spans.
func (p *Presenter[T]) Redact(fields ...string) *Presenter[T] {
	p.mustBeMutable("Redact")
	p.def.Redact(fields, false)
	return p
}

// Omit removes T's fields (by JSON name) from every answer, as if they did
// not exist. A struct tag redact:"omit" on a field does the same without
// a presenter.
func (p *Presenter[T]) Omit(fields ...string) *Presenter[T] {
	p.mustBeMutable("Omit")
	p.def.Redact(fields, true)
	return p
}

// Marker sets the text redacted fields of T hold (default "[redacted]").
func (p *Presenter[T]) Marker(marker string) *Presenter[T] {
	p.mustBeMutable("Marker")
	p.def.SetMarker(marker)
	return p
}

// observe runs RulesFor and Suggest on one value of T.
func (p *Presenter[T]) observe(v reflect.Value, n *presenter.Notes) {
	if len(p.rulesFor) == 0 && len(p.suggest) == 0 {
		return
	}
	x, _ := reflect.TypeAssert[T](v) // no copy to the heap, as Interface would make
	for _, fn := range p.rulesFor {
		n.AddRules(fn(x))
	}
	for _, fn := range p.suggest {
		n.AddSuggestions(fn(x))
	}
}

func (p *Presenter[T]) presenter() *presenterDef { return p.def }

func (p *Presenter[T]) mustBeMutable(method string) {
	if p == nil || p.def == nil {
		panic(fmt.Sprintf("vurb: Presenter.%s on a presenter not made by NewPresenter", method))
	}
	if p.def.Frozen() {
		panic(fmt.Sprintf("vurb: Presenter[%s].%s: an app using it is built, and the presenter is frozen with it; "+
			"configure it completely before Build, Call, Attach or Serve", p.def.Type(), method))
	}
}

// Present makes app apply presenters to the results of every action it
// has or will have. A type has at most one presenter per app. It panics
// when the app is built.
//
//	vurb.Present(app, vurb.NewPresenter[Invoice]().
//		Rules("amount_cents is in cents: divide by 100 before showing it").
//		Redact("card_number").
//		Limit(50))
func Present(app *App, presenters ...AnyPresenter) {
	app.mustBeMutable()
	for _, ap := range presenters {
		if ap == nil || reflect.ValueOf(ap).IsNil() || ap.presenter() == nil {
			panic("vurb: Present: nil presenter; make one with vurb.NewPresenter[T]()")
		}
		def := ap.presenter()
		for _, have := range app.presenters {
			if have.Type() == def.Type() {
				panic(fmt.Sprintf("vurb: Present: the app already has a presenter of %s; a type has one presenter, "+
					"so put its rules, redactions and suggestions in that one", def.Type()))
			}
		}
		app.presenters = append(app.presenters, def)
	}
}

// presenting is what an app's presenters compile to at Build: the shapes
// of its result types and how each action is called, for suggestions.
type presenting = presenter.Set

// presentation returns the app's presenting, made on first use at Build
// (under the build lock), when it freezes the app's presenters.
func (a *App) presentation() *presenting {
	if a.presented != nil {
		return a.presented
	}
	forms := map[string]presenter.CallForm{}
	var outs []reflect.Type
	grouped := a.cfg.exposition == Grouped
	for _, t := range a.tools {
		for _, d := range t.allActions() {
			outs = append(outs, d.outType)
			f := presenter.CallForm{Wire: engine.FlatName(t.name, d.key, a.cfg.separator), Action: d.key}
			if grouped && !t.solo() {
				f.Wire, f.Discriminator = t.name, t.discriminatorName()
			}
			forms[d.canonicalKey()] = f
		}
	}
	rf := a.cfg.resultFormat
	a.presented = presenter.NewSet(a.presenters, forms, outs, presenter.Format{
		Name: rf.name, Text: rf.text, OrJSON: rf.orJSON, ReadsJSON: rf.readsJSON,
		Encode:  func(v any, structured bool) (*mcp.CallToolResult, error) { return encodeResult(v, structured, rf) },
		Dynamic: func(v any) (*mcp.CallToolResult, error) { return dynamicResult(v, rf) },
	}, a.cfg.validator)
	return a.presented
}

// suggests reports whether a presenter of the app suggests actions, which
// then need to know what each caller is shown.
func (a *App) suggests() bool { return presenter.Suggests(a.presenters) }

// presentedAction is how one action's results are presented: compiled at
// Build, read by every call.
type presentedAction presenter.Action

// present returns the action's endpoint and output schema as its app's
// presenters and redact tags make them: d.endpoint and d.outputSchema
// when nothing presents or redacts what it returns, so that such an
// action's calls run exactly the code they would without presenters.
func (d *ActionDef) present() (Handler, json.RawMessage) {
	app := d.tool.app
	if len(app.presenters) > 0 {
		app.presentation() // freezes the presenters, whatever the actions return
	}
	t := d.outType
	if d.presentWith == nil || t == nil || t.Kind() == reflect.String || t == reflect.TypeFor[*mcp.CallToolResult]() {
		return d.endpoint, d.outputSchema
	}
	pa, outputSchema := app.presentation().Action(t, d.codec, d.outputSchema)
	if pa == nil {
		return d.endpoint, d.outputSchema
	}
	d.outputSchema = outputSchema
	d.presented = (*presentedAction)(pa)
	return d.presentWith(d.presented), d.outputSchema
}

// model is what the app's model (and so its manifest) says of how the
// action's results are presented; nil when nothing presents them.
func (pa *presentedAction) model() *model.Presentation {
	return (*presenter.Action)(pa).Model()
}

// adaptPresented is adapt for an action whose results are presented.
func adaptPresented[In, Out any](h func(context.Context, In) (Out, error), pa *presentedAction) Handler {
	pointer := reflect.TypeFor[In]().Kind() == reflect.Pointer
	action := (*presenter.Action)(pa)
	return func(ctx context.Context, c *Call) (*mcp.CallToolResult, error) {
		var out Out
		var err error
		if pointer {
			out, err = h(ctx, c.Input.(In))
		} else {
			out, err = h(ctx, *c.Input.(*In))
		}
		if err != nil {
			return nil, err
		}
		return action.Result((*engine.Call)(c), reflect.ValueOf(&out).Elem())
	}
}

// Presentation is what a presented result tells the model besides its
// data, as ReadPresentation reads it back from the result's text: for
// tests (vurbtest asserts on it) and for Go clients that want the
// suggestions as values. Rules are the presenters' rules, each once;
// LeftOut the collections a Limit cut; Next the suggested calls, as the
// model must make them.
type Presentation = presenter.Presentation

// LeftOut is a collection cut by a presenter's Limit, or all those at one
// place of the result: where (Path, "" for the result itself), the Go
// type of its elements, how many were shown of how many, in how many
// lists, and the action's input fields that narrow the query.
type LeftOut = presenter.LeftOut

// NextCall is one suggested call: the wire tool to call, its arguments
// (numbers as json.Number) and the presenter's reason.
type NextCall = presenter.NextCall

// ReadPresentation reads the presentation block of res, the text block
// after the data that presented results carry; ok is false when res has
// none (nothing was presented, or the presenters had nothing to say).
func ReadPresentation(res *mcp.CallToolResult) (p Presentation, ok bool) {
	return presenter.Read(res)
}
