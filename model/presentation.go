package model

import (
	"maps"
	"slices"
)

// Presentation is what presenters (package presenter's Presenter and redact
// tags) do to an action's results: the types they present, and which
// places of the result clients never see whole. A place is a path in the
// result's JSON: "invoices[].card_number", "[]" for the elements of a
// list, "*" for the values of a map, "" for the result itself.
type Presentation struct {
	// Presenters are the Go types with a presenter the result can hold
	// ("billing.Invoice"), sorted.
	Presenters []string
	// Redacted are the places whose value is replaced by a marker, sorted.
	Redacted []string
	// Omitted are the places left out of the result, sorted.
	Omitted []string
	// Limits are the lists a presenter cuts, by place, with the number of
	// elements kept.
	Limits map[string]int
}

// Presentation returns what presenters do to the action's results, nil
// when nothing presents them.
func (a *Action) Presentation() *Presentation { return a.presented.clone() }

func (p *Presentation) clone() *Presentation {
	if p == nil {
		return nil
	}
	return &Presentation{Presenters: slices.Clone(p.Presenters), Redacted: slices.Clone(p.Redacted),
		Omitted: slices.Clone(p.Omitted), Limits: maps.Clone(p.Limits)}
}
