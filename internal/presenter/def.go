// Package presenter shapes the results of an app's actions as its
// presenters and redact tags ask: it compiles, once per result type, how
// each is written (fields redacted or omitted, collections cut, values
// handed to their presenter), writes each result as encoding/json would
// but for that, and writes the presentation block (rules, cuts,
// suggestions) the model reads after the data. It stands apart from the
// public package presenter, which declares presenters (presenter.New and
// its methods) and reads a presentation back, and from the root, which
// takes them with vurb.WithPresenters and hands their definitions here at
// Build; it imports neither.
package presenter

import (
	"fmt"
	"reflect"
	"slices"
	"sync/atomic"
)

// DefaultMarker is what a redacted field holds in every answer, unless
// its presenter sets another.
const DefaultMarker = "[redacted]"

// Suggestion is a suggested action as the writer reads it: the fields of
// the public presenter.Suggestion, which converts to it (the two must stay
// identical field for field).
type Suggestion struct {
	// Action is the canonical key of the action to call.
	Action string
	// Reason says why, in a few words the model reads after the call.
	Reason string
	// Args are arguments to call it with, written out for the model; nil
	// for none.
	Args map[string]any
}

// Def is a presenter without its type parameter: what the public
// presenter.Presenter[T] records, what the build compiles into shapes and the
// writer calls.
type Def struct {
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
	observe func(v reflect.Value, n *Notes)
	suggest bool // has Suggest functions
	frozen  atomic.Bool
}

// New returns the empty presenter of typ, a struct type; observe hands
// one value of typ to the presenter's RulesFor and Suggest functions.
func New(typ reflect.Type, observe func(v reflect.Value, n *Notes)) *Def {
	return &Def{typ: typ, marker: DefaultMarker, fields: map[string]bool{}, observe: observe}
}

// Type is the type the presenter presents.
func (p *Def) Type() reflect.Type { return p.typ }

// Frozen reports whether an app using the presenter is built: then it
// may no longer change.
func (p *Def) Frozen() bool { return p.frozen.Load() }

// AddRules adds static rules, each kept on one line; empty ones are
// dropped.
func (p *Def) AddRules(rules []string) {
	for _, r := range rules {
		if r = oneLine(r); r != "" {
			p.rules = append(p.rules, r)
		}
	}
}

// SetSuggests records that the presenter has Suggest functions, which then
// need to know what each caller is shown.
func (p *Def) SetSuggests() { p.suggest = true }

// SetLimit sets how many elements of a collection of the type are kept.
func (p *Def) SetLimit(n int) { p.limit = n }

// SetMarker sets what the redacted fields hold.
func (p *Def) SetMarker(marker string) { p.marker = marker }

// Redact records fields (by JSON name) as omitted or replaced by the
// marker, panicking when a field is given both ways.
func (p *Def) Redact(fields []string, omit bool) {
	for _, f := range fields {
		if was, ok := p.fields[f]; ok && was != omit {
			panic(fmt.Sprintf("vurb: Presenter[%s]: field %q is given to both Redact and Omit; choose one", p.typ, f))
		}
		if !slices.Contains(p.order, f) {
			p.order = append(p.order, f)
		}
		p.fields[f] = omit
	}
}

// Suggests reports whether one of presenters suggests actions.
func Suggests(presenters []*Def) bool {
	return slices.ContainsFunc(presenters, func(p *Def) bool { return p.suggest })
}
