package search

import (
	"strings"

	"github.com/kljensen/snowball/english"
)

// Bounds on one query, so that no query costs more than a short one with
// common words: what is past them is not read.
const (
	maxQueryBytes = 1024
	maxQueryTerms = 32
	MaxLimit      = 50
)

// Hit is one doc a query found, with its score.
type Hit struct {
	Doc   int
	Score float32
}

// Search returns the docs that best match query, best first, at most
// limit of them (1 to MaxLimit), among those allow accepts (all when
// allow is nil): a caller never finds what its view hides. Docs that
// share no word with the query are not returned. It appends to hits and
// returns the result.
func (ix *Index) Search(query string, limit int, allow func(doc int) bool, hits []Hit) []Hit {
	limit = min(max(limit, 1), MaxLimit)
	if len(query) > maxQueryBytes {
		query = query[:maxQueryBytes]
	}
	var termsBuf [maxQueryTerms]int32
	terms := termsBuf[:0]
	words(query, func(w string) bool {
		if stopWord(w) {
			return true
		}
		t, ok := ix.term(w)
		if ok && !contains(terms, t) {
			terms = append(terms, t)
		}
		return len(terms) < maxQueryTerms
	})
	exact, hasExact := ix.names[strings.ToLower(strings.TrimSpace(query))]

	acc := ix.scratch.Get().(*accumulator)
	defer func() {
		for _, d := range acc.touched {
			acc.score[d] = 0
		}
		acc.touched = acc.touched[:0]
		ix.scratch.Put(acc)
	}()
	for _, t := range terms {
		for _, p := range ix.postings[t] {
			if acc.score[p.doc] == 0 {
				acc.touched = append(acc.touched, p.doc)
			}
			acc.score[p.doc] += p.impact
		}
	}
	if hasExact {
		if acc.score[exact] == 0 {
			acc.touched = append(acc.touched, exact)
		}
		acc.score[exact] += 1000 // the name itself, as listed
	}
	start := len(hits)
	for _, d := range acc.touched {
		s := acc.score[d]
		if allow != nil && !allow(int(d)) {
			continue
		}
		hits = insert(hits, start, limit, Hit{Doc: int(d), Score: s})
	}
	return hits
}

// term is the term of word w: as indexed when the index has seen it
// written so, else by its stem.
func (ix *Index) term(w string) (int32, bool) {
	if t, ok := ix.surface[w]; ok {
		return t, true
	}
	t, ok := ix.terms[english.Stem(w, false)]
	return t, ok
}

// insert places h among hits[start:], kept best first and at most limit
// long; ties keep the lower doc first, so a result never depends on the
// order the postings were read in.
func insert(hits []Hit, start, limit int, h Hit) []Hit {
	top := hits[start:]
	i := len(top)
	for i > 0 && better(h, top[i-1]) {
		i--
	}
	if i >= limit {
		return hits
	}
	if len(top) < limit {
		hits = append(hits, Hit{})
		top = hits[start:]
	}
	copy(top[i+1:], top[i:len(top)-1])
	top[i] = h
	return hits
}

func better(a, b Hit) bool {
	if a.Score != b.Score {
		return a.Score > b.Score
	}
	return a.Doc < b.Doc
}

func contains(ts []int32, t int32) bool {
	for _, x := range ts {
		if x == t {
			return true
		}
	}
	return false
}
