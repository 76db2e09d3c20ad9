package manifest

import (
	"maps"
	"slices"
	"strings"

	"github.com/vurb-go/vurb/model"
)

// Presentation is what presenters do to an action's results (package
// presenter's Presenter and redact tags): the presented types its result can
// hold, and the places of the result, as paths in its JSON
// ("invoices[].card_number"; "[]" for a list's elements, "*" for a map's
// values), that clients never see whole. The wire does not show it, so
// it comes from the app, as Task does.
type Presentation struct {
	// Presenters are the Go types with a presenter ("billing.Invoice").
	Presenters []string `json:"presenters,omitempty"`
	// Redacted are the places whose value is replaced by a marker.
	Redacted []string `json:"redacted,omitempty"`
	// Omitted are the places left out of the result.
	Omitted []string `json:"omitted,omitempty"`
	// Limits are the lists a presenter cuts, with the elements kept.
	Limits map[string]int `json:"limits,omitempty"`
}

// presentationOf is the manifest's form of the model's presentation.
func presentationOf(p *model.Presentation) *Presentation {
	if p == nil {
		return nil
	}
	return &Presentation{Presenters: p.Presenters, Redacted: p.Redacted, Omitted: p.Omitted, Limits: p.Limits}
}

// normalized sorts p's lists; nil stays nil.
func (p *Presentation) normalized() *Presentation {
	if p == nil {
		return nil
	}
	return &Presentation{Presenters: sorted(p.Presenters), Redacted: sorted(p.Redacted), Omitted: sorted(p.Omitted),
		Limits: maps.Clone(p.Limits)}
}

// hidden are the places clients do not see: redacted or omitted.
func (p *Presentation) hidden() []string {
	if p == nil {
		return nil
	}
	return slices.Concat(p.Redacted, p.Omitted)
}

// presentation compares how an action's results are presented. A place
// no longer redacted or omitted breaks the promise the old manifest made:
// the value now reaches every client (and every model). A new redaction,
// a marker turned into an omission or back, other presenters or limits
// change what a client reads, which the output schema's diff classifies;
// here they are compatible.
func (d *differ) presentation(path string, a, b *Presentation) {
	p := path + "/presentation"
	removed, added := minus(a.hidden(), b.hidden()), minus(b.hidden(), a.hidden())
	for _, place := range removed {
		d.add(RedactionRemoved, true, p, "%s is no longer redacted: its value now reaches clients", placeName(place))
	}
	if len(added) > 0 {
		names := make([]string, len(added))
		for i, place := range added {
			names[i] = placeName(place)
		}
		d.add(RedactionAdded, false, p, "now redacted: %s", strings.Join(names, ", "))
	}
	if a == nil || b == nil {
		return
	}
	moved := len(removed)+len(added) == 0 && !slices.Equal(a.Redacted, b.Redacted)
	if moved || !slices.Equal(a.Presenters, b.Presenters) || !maps.Equal(a.Limits, b.Limits) {
		d.add(PresentationChanged, false, p, "how results are presented changed (presenters, limits, or markers and omissions)")
	}
}

func placeName(place string) string {
	if place == "" {
		return "the result"
	}
	return place
}
