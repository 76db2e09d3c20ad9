package search

import (
	"strings"
	"testing"
)

// FuzzSearch holds any query, however long or odd, to a well-formed
// answer: at most limit hits, best first, each an indexed doc the filter
// allows. (What bounds its cost is structural: Search reads at most
// maxQueryBytes of a query and scores at most maxQueryWords words, each
// with at most maxExpansions synonyms.)
func FuzzSearch(f *testing.F) {
	ix, _ := testIndex(f)
	for _, q := range []string{"", "list invoices", "invoices_list", "\xff\xfe", strings.Repeat("delete ", 500),
		"HTTPServerV2 restartService", "ünïcödé файл 削除", "a the of to"} {
		f.Add(q, 5)
	}
	allow := func(doc int) bool { return doc%3 != 0 }
	f.Fuzz(func(t *testing.T, q string, limit int) {
		hits := ix.Search(q, limit, allow, nil)
		if len(hits) > min(max(limit, 1), MaxLimit) {
			t.Fatalf("%d hits for limit %d", len(hits), limit)
		}
		for i, h := range hits {
			if h.Doc < 0 || h.Doc >= ix.Len() || !allow(h.Doc) {
				t.Fatalf("hit %d: doc %d is not an allowed doc", i, h.Doc)
			}
			if i > 0 && better(h, hits[i-1]) {
				t.Fatalf("hits out of order at %d: %v", i, hits)
			}
		}
	})
}
