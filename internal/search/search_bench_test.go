package search

import (
	"fmt"
	"strings"
	"testing"
)

// largeIndex is the test catalogue repeated to n actions, each copy a
// domain of its own ("invoices_list_17"), so that every word's postings
// grow with the app as a real large server's would.
func largeIndex(t testing.TB, n int) (*Index, []testIntent) {
	var catalog []testAction
	loadJSON(t, "testdata/catalog.json", &catalog)
	var intents []testIntent
	loadJSON(t, "testdata/intents.json", &intents)
	docs := make([]Doc, 0, n)
	for copyN := 0; len(docs) < n; copyN++ {
		for _, a := range catalog {
			if len(docs) == n {
				break
			}
			d := Doc{Name: fmt.Sprintf("%s_%d", strings.ReplaceAll(a.Name, ".", "_"), copyN), Description: a.Description, Tags: a.Tags}
			for _, p := range a.Params {
				d.Params = append(d.Params, Param{Name: p.Name, Description: p.Description})
			}
			docs = append(docs, d)
		}
	}
	return Build(docs), intents
}

// BenchmarkSearch is one query over 10,000 actions, the intents' three
// phrasings in turn, five results asked for.
func BenchmarkSearch(b *testing.B) {
	ix, intents := largeIndex(b, 10_000)
	var queries []string
	for _, in := range intents {
		queries = append(queries, in.OwnWords, in.Paraphrase, in.Sentence)
	}
	hits := make([]Hit, 0, MaxLimit)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		hits = ix.Search(queries[i%len(queries)], 5, nil, hits[:0])
		i++
	}
}
