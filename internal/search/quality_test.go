package search

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// quality is how well the ranker finds each intent's action, for one
// way of writing the intents.
type quality struct {
	n                    int
	at1, at5, reciprocal float64
}

func (q quality) String() string {
	return fmt.Sprintf("recall@1 %.3f  recall@5 %.3f  MRR %.3f  (%d intents)",
		q.at1/float64(q.n), q.at5/float64(q.n), q.reciprocal/float64(q.n), q.n)
}

// testIndex indexes the test catalogue as a flat listing names it.
func testIndex(t testing.TB) (*Index, []testAction) {
	var catalog []testAction
	loadJSON(t, "testdata/catalog.json", &catalog)
	docs := make([]Doc, len(catalog))
	for i, a := range catalog {
		d := Doc{Name: strings.ReplaceAll(a.Name, ".", "_"), Description: a.Description, Tags: a.Tags}
		for _, p := range a.Params {
			d.Params = append(d.Params, Param{Name: p.Name, Description: p.Description})
		}
		docs[i] = d
	}
	return Build(docs), catalog
}

// measure ranks every intent written one way and scores where its
// action comes.
func measure(ix *Index, catalog []testAction, intents []testIntent, phrase func(testIntent) string, miss func(testIntent, string, []Hit)) quality {
	var q quality
	for _, in := range intents {
		q.n++
		hits := ix.Search(phrase(in), 20, nil, nil)
		for rank, h := range hits {
			if catalog[h.Doc].Name == in.Want {
				q.reciprocal += 1 / float64(rank+1)
				if rank == 0 {
					q.at1++
				}
				if rank < 5 {
					q.at5++
				}
				break
			}
		}
		if miss != nil && (len(hits) == 0 || catalog[hits[0].Doc].Name != in.Want) {
			miss(in, phrase(in), hits)
		}
	}
	return q
}

// TestRankingQuality measures recall@1, recall@5 and MRR on the test set
// (testdata/README.md), for each way the intents are written and over
// all of them; -v prints the figures, and SEARCH_MISSES=1 each intent
// whose action does not come first.
func TestRankingQuality(t *testing.T) {
	ix, catalog := testIndex(t)
	var intents []testIntent
	loadJSON(t, "testdata/intents.json", &intents)
	ways := []struct {
		name   string
		phrase func(testIntent) string
	}{
		{"own words", func(in testIntent) string { return in.OwnWords }},
		{"paraphrase", func(in testIntent) string { return in.Paraphrase }},
		{"sentence", func(in testIntent) string { return in.Sentence }},
	}
	var miss func(testIntent, string, []Hit)
	if os.Getenv("SEARCH_MISSES") != "" {
		miss = func(in testIntent, q string, hits []Hit) {
			var got []string
			for _, h := range hits[:min(len(hits), 3)] {
				got = append(got, catalog[h.Doc].Name)
			}
			t.Logf("%s want %s: %q -> %v", in.ID, in.Want, q, got)
		}
	}
	var all quality
	for _, w := range ways {
		q := measure(ix, catalog, intents, w.phrase, miss)
		if w.name == "own words" && q.at5/float64(q.n) < 0.95 {
			t.Errorf("own words: %s; an intent in the tool's own words must find it in the first five", q)
		}
		t.Logf("%-10s %s", w.name, q)
		all.n += q.n
		all.at1 += q.at1
		all.at5 += q.at5
		all.reciprocal += q.reciprocal
	}
	t.Logf("%-10s %s", "overall", all)
}
