package vurb

import (
	"fmt"
	"reflect"
	"slices"
	"sync/atomic"
)

// DefaultRedactionMarker is what a redacted field holds in every answer,
// unless its presenter sets another (Presenter.Marker).
const DefaultRedactionMarker = "[redacted]"

// Suggestion is an action a presenter suggests the model call next, with
// why. Action is the canonical dotted key ("billing.pay",
// "admin.users.ban"), whatever the app's exposition: vurb writes it as the
// model must call it (the flat wire name, or the grouped tool with its
// discriminator), and drops it when the caller is not shown that action.
type Suggestion struct {
	// Action is the canonical key of the action to call.
	Action string
	// Reason says why, in a few words the model reads after the call.
	Reason string
	// Args are arguments to call it with, written out for the model; nil
	// for none.
	Args map[string]any
}

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
type presenterDef struct {
	typ    reflect.Type
	rules  []string
	limit  int
	marker string
	// fields are the redactions given by JSON name: true omits the field,
	// false replaces its value with the marker.
	fields map[string]bool
	order  []string // fields' names, in the order given
	// observe hands one value to RulesFor and Suggest; nil when there are
	// none. v is of type typ and may be read through an interface.
	observe func(v reflect.Value, n *notes)
	suggest bool // has Suggest functions
	frozen  atomic.Bool
}

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
	p := &Presenter[T]{def: &presenterDef{typ: t, marker: DefaultRedactionMarker, fields: map[string]bool{}}}
	p.def.observe = p.observe
	return p
}

// Rules adds rules the model reads with any result holding a T, once per
// result: how to read T's fields ("amount_cents is in cents: divide by 100
// before showing it"), what to say or not say about it.
func (p *Presenter[T]) Rules(rules ...string) *Presenter[T] {
	p.mustBeMutable("Rules")
	for _, r := range rules {
		if r = oneLine(r); r != "" {
			p.def.rules = append(p.def.rules, r)
		}
	}
	return p
}

// RulesFor adds rules computed from each T a result holds ("invoice 42 is
// overdue: say so first"); fn returns nil for none. A rule several values
// give is written once.
func (p *Presenter[T]) RulesFor(fn func(v T) []string) *Presenter[T] {
	p.mustBeMutable("RulesFor")
	if fn == nil {
		panic(fmt.Sprintf("vurb: Presenter[%s].RulesFor: nil function", p.def.typ))
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
		panic(fmt.Sprintf("vurb: Presenter[%s].Suggest: nil function", p.def.typ))
	}
	p.suggest = append(p.suggest, fn)
	p.def.suggest = true
	return p
}

// Limit keeps at most n elements of any slice or array of T (or of *T) in
// a result, the first n, and tells the model how many were left out and
// which of the action's input fields narrow the query: those tagged
// filter:"true", or else every optional one. n must be positive.
func (p *Presenter[T]) Limit(n int) *Presenter[T] {
	p.mustBeMutable("Limit")
	if n <= 0 {
		panic(fmt.Sprintf("vurb: Presenter[%s].Limit(%d): give the number of elements to keep, at least 1", p.def.typ, n))
	}
	p.def.limit = n
	return p
}

// Redact replaces the values of T's fields (by JSON name, promoted fields
// included) with the presenter's marker in every answer. A struct tag
// redact:"true" on a field does the same without a presenter.
func (p *Presenter[T]) Redact(fields ...string) *Presenter[T] {
	p.mustBeMutable("Redact")
	return p.redact(fields, false)
}

// Omit removes T's fields (by JSON name) from every answer, as if they did
// not exist. A struct tag redact:"omit" on a field does the same without
// a presenter.
func (p *Presenter[T]) Omit(fields ...string) *Presenter[T] {
	p.mustBeMutable("Omit")
	return p.redact(fields, true)
}

// Marker sets the text redacted fields of T hold (default
// DefaultRedactionMarker).
func (p *Presenter[T]) Marker(marker string) *Presenter[T] {
	p.mustBeMutable("Marker")
	p.def.marker = marker
	return p
}

func (p *Presenter[T]) redact(fields []string, omit bool) *Presenter[T] {
	for _, f := range fields {
		if was, ok := p.def.fields[f]; ok && was != omit {
			panic(fmt.Sprintf("vurb: Presenter[%s]: field %q is given to both Redact and Omit; choose one", p.def.typ, f))
		}
		if !slices.Contains(p.def.order, f) {
			p.def.order = append(p.def.order, f)
		}
		p.def.fields[f] = omit
	}
	return p
}

// observe runs RulesFor and Suggest on one value of T.
func (p *Presenter[T]) observe(v reflect.Value, n *notes) {
	if len(p.rulesFor) == 0 && len(p.suggest) == 0 {
		return
	}
	x, _ := reflect.TypeAssert[T](v) // no copy to the heap, as Interface would make
	for _, fn := range p.rulesFor {
		n.addRules(fn(x))
	}
	for _, fn := range p.suggest {
		n.addSuggestions(fn(x))
	}
}

func (p *Presenter[T]) presenter() *presenterDef { return p.def }

func (p *Presenter[T]) mustBeMutable(method string) {
	if p == nil || p.def == nil {
		panic(fmt.Sprintf("vurb: Presenter.%s on a presenter not made by NewPresenter", method))
	}
	if p.def.frozen.Load() {
		panic(fmt.Sprintf("vurb: Presenter[%s].%s: an app using it is built, and the presenter is frozen with it; "+
			"configure it completely before Build, Call, Attach or Serve", p.def.typ, method))
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
			if have.typ == def.typ {
				panic(fmt.Sprintf("vurb: Present: the app already has a presenter of %s; a type has one presenter, "+
					"so put its rules, redactions and suggestions in that one", def.typ))
			}
		}
		app.presenters = append(app.presenters, def)
	}
}
