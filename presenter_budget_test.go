package vurb_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/vurb-go/vurb"
)

// TestPresenterTokenBudget: what a model reads of a 50-row result, counted
// with o200k_base. Unpresented, it is the handler's value as JSON; with
// the fixture's presenter (Limit(20), the card redacted, the internal note
// omitted, rules and suggestions after the data) it must cost fewer
// tokens, in JSON and in TOON, everything the model reads included.
//
//	go test -run TestPresenterTokenBudget -v .
func TestPresenterTokenBudget(t *testing.T) {
	all := invoices(50)
	raw, err := json.Marshal(InvoicePage{Invoices: all, Total: len(all)})
	if err != nil {
		t.Fatal(err)
	}
	unpresented := tokens(t, string(raw))
	for name, format := range map[string]vurb.ResultFormat{"JSON": vurb.JSONResults(), "TOON": vurb.TOONResults()} {
		res := callOK(t, presentedBilling(50, 20, vurb.WithResultFormat(format)), "billing_list", `{}`)
		var texts []string
		for i := range res.Content {
			texts = append(texts, textOf(res, i))
		}
		data, block := tokens(t, texts[0]), tokens(t, strings.Join(texts[1:], "\n"))
		t.Logf("%s: unpresented JSON %d tokens; presented %d (data %d, rules, cut and suggestions %d)",
			name, unpresented, data+block, data, block)
		if data+block >= unpresented {
			t.Errorf("%s: the presented result costs %d tokens, the unpresented JSON %d", name, data+block, unpresented)
		}
	}
}
