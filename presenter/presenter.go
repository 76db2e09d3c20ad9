// Package presenter decides how a typed result is shaped for the model:
// the rules the model reads with it, the actions it suggests next, how
// many elements of a collection are sent and which fields never leave
// the server. It also reads back, in a client or a test, what a
// presented result told the model (Read).
//
// It stands apart from the root package because presenters are an
// advanced feature most servers do without: a server author declares one
// with New, configures it with its methods and gives it to the app with
// vurb.WithPresenters; every action applies it without opting in.
//
//	app := vurb.New(vurb.WithPresenters(presenter.New[Invoice]().
//		Rules("amount_cents is in cents: divide by 100 before showing it").
//		Redact("card_number").
//		Limit(50)))
//
// The package does not import the root; the machinery that compiles
// presenters at Build and writes presented results is internal to vurb.
package presenter

import (
	"fmt"
	"reflect"

	"github.com/vurb-go/vurb/internal/presenter"
)

// Presenter shapes every value of type T a handler returns, wherever T
// appears in the result: alone, in a slice or a map, behind a pointer, as
// a field of another type, or held by an interface. It decides what of T
// leaves the server (Redact, Omit, Limit) and what travels with it to the
// model (Rules, RulesFor, Suggest). Declare it once and give it to the
// app with vurb.WithPresenters: every action applies it without opting in.
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
	handle   // what the app reads the definition through (Any)
	def      *presenter.Def
	rulesFor []func(T) []string
	suggest  []func(T) []Suggestion
}

// handle is unexported so that nothing of it shows on Presenter.
type handle = presenter.Handle

// Any is a presenter of any type: what vurb.WithPresenters takes. Only
// *Presenter[T] implements it.
type Any interface{ holder }

// holder is unexported so that go doc shows Any as sealed, as it is.
type holder = presenter.Holder

// Suggestion is an action a presenter suggests the model call next, with
// why. vurb writes it as the model must call it, whatever the app's
// exposition (the flat wire name, or the grouped tool with its
// discriminator), and drops it when the caller is not shown that action.
type Suggestion struct {
	// Action is the canonical dotted key of the action to call
	// ("billing.pay", "admin.users.ban"). A suggestion naming no action
	// of the app is dropped and logged.
	Action string
	// Reason says why, in a few words the model reads after the call; ""
	// for none.
	Reason string
	// Args are arguments to call it with, written out for the model; nil
	// for none.
	Args map[string]any
}

// New returns an empty presenter of T, to configure with its methods and
// give to vurb.WithPresenters. It panics unless T is a struct type.
func New[T any]() *Presenter[T] {
	t := reflect.TypeFor[T]()
	if t.Kind() != reflect.Struct {
		hint := ""
		if t.Kind() == reflect.Pointer {
			hint = fmt.Sprintf(": use presenter.New[%s](), which applies behind pointers too", t.Elem())
		}
		panic(fmt.Sprintf("vurb: presenter.New[%s]: a presenter presents a struct type%s", t, hint))
	}
	p := &Presenter[T]{}
	p.def = presenter.New(t, p.observe)
	p.handle = presenter.NewHandle(p.def)
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
// only when the caller is shown its action (tag filters,
// vurb.WithVisibility, scopes); a suggestion naming no action of the app
// is dropped and logged.
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
		for _, s := range fn(x) {
			n.AddSuggestion(presenter.Suggestion(s))
		}
	}
}

func (p *Presenter[T]) mustBeMutable(method string) {
	if p == nil || p.def == nil {
		panic(fmt.Sprintf("vurb: Presenter.%s on a presenter not made by presenter.New", method))
	}
	if p.def.Frozen() {
		panic(fmt.Sprintf("vurb: Presenter[%s].%s: an app using it is built, and the presenter is frozen with it; "+
			"configure it completely before Build, Call, Attach or Serve", p.def.Type(), method))
	}
}
