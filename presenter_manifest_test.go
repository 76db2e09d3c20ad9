package vurb_test

import (
	"testing"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/manifest"
	"github.com/vurb-go/vurb/presenter"
)

// TestPresenterInManifest: the manifest lists what presenters do to each
// action's results, and vurb diff calls a redaction removed breaking.
func TestPresenterInManifest(t *testing.T) {
	is := is.New(t)
	m := manifest.Of(presentedBilling(3, 20).Model())
	byKey := map[string]manifest.Action{}
	for _, a := range m.Actions {
		byKey[a.Key] = a
	}
	is.Equal(byKey["billing.list"].Presentation, &manifest.Presentation{
		Presenters: []string{"vurb_test.Customer", "vurb_test.Invoice"},
		Redacted:   []string{"invoices[].card_number", "invoices[].customer.email"},
		Omitted:    []string{"invoices[].internal"},
		Limits:     map[string]int{"invoices": 20},
	})
	is.Equal(byKey["billing.search"].Presentation.Redacted, []string{"[].card_number", "[].customer.email"})
	is.Equal(byKey["billing.account"].Presentation.Limits, map[string]int{"by_status.*": 20})
	is.Equal(byKey["billing.pay"].Presentation, nil) // a string: nothing to present

	// The card no longer redacted: breaking; the lock sees it too.
	leaky := billingApp(3, vurb.WithPresenters(presenter.New[Invoice]().Rules(ruleCents).Omit("internal").Limit(20),
		presenter.New[Customer]().Rules("customers are companies")))
	changes := manifest.Diff(m, manifest.Of(leaky.Model()))
	is.True(manifest.Breaking(changes))
	var removed []string
	for _, c := range changes {
		if c.Kind == manifest.RedactionRemoved {
			removed = append(removed, c.Path+": "+c.Reason)
		}
	}
	is.True(len(removed) > 0)
	is.Equal(removed[0], "actions/billing.account/presentation: by_status.*[].card_number is no longer redacted: its value now reaches clients")
	is.True(manifest.LockOf(m).Actions["billing.list"] != manifest.LockOf(manifest.Of(leaky.Model())).Actions["billing.list"])
}
