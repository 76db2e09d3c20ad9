package search

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/matryer/is"
)

type testAction struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Params      []struct {
		Name        string `json:"name"`
		Type        string `json:"type"`
		Description string `json:"description"`
	} `json:"params"`
	Tags        []string `json:"tags"`
	Annotations struct {
		ReadOnlyHint    bool `json:"readOnlyHint"`
		DestructiveHint bool `json:"destructiveHint"`
	} `json:"annotations"`
}

type testIntent struct {
	ID             string `json:"id"`
	Want           string `json:"want"`
	ConfusableWith string `json:"confusable_with"`
	OwnWords       string `json:"own_words"`
	Paraphrase     string `json:"paraphrase"`
	Sentence       string `json:"sentence"`
}

func loadJSON(t testing.TB, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// TestTestSetIsWellFormed checks the evaluation data in testdata: the
// catalog and the intents were written before any ranker existed and are
// not to be edited to suit one; this test only checks their shape.
func TestTestSetIsWellFormed(t *testing.T) {
	is := is.New(t)

	var actions []testAction
	loadJSON(t, "testdata/catalog.json", &actions)
	var intents []testIntent
	loadJSON(t, "testdata/intents.json", &intents)

	names := map[string]bool{}
	domains := map[string]bool{}
	for _, a := range actions {
		is.True(a.Name != "")        // every action has a name
		is.True(a.Description != "") // every action has a description
		is.True(!names[a.Name])      // action names are unique
		is.True(len(a.Tags) > 0)     // every action has a domain tag
		names[a.Name] = true
		domains[a.Tags[0]] = true
	}
	is.True(len(actions) >= 160) // at least 160 actions
	is.True(len(domains) >= 12)  // at least 12 domains

	ids := map[string]bool{}
	perDomain := map[string]int{}
	for _, in := range intents {
		is.True(in.ID != "") // every intent has an id
		is.True(!ids[in.ID]) // intent ids are unique
		ids[in.ID] = true
		if !names[in.Want] {
			t.Errorf("intent %s wants %q, which is not in the catalog", in.ID, in.Want)
		}
		if in.ConfusableWith != "" && !names[in.ConfusableWith] {
			t.Errorf("intent %s is confusable with %q, which is not in the catalog", in.ID, in.ConfusableWith)
		}
		is.True(in.OwnWords != "")   // own_words is set
		is.True(in.Paraphrase != "") // paraphrase is set
		is.True(in.Sentence != "")   // sentence is set
	}
	for _, a := range actions {
		for _, in := range intents {
			if in.Want == a.Name {
				perDomain[a.Tags[0]]++
			}
		}
	}
	is.True(len(intents) >= 110) // at least 110 intents
	for d := range domains {
		if perDomain[d] < 6 {
			t.Errorf("domain %s has %d intents, want at least 6", d, perDomain[d])
		}
	}
}
