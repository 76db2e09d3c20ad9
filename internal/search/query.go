package search

import (
	"slices"
	"strings"
)

// Bounds on one query, so that no query costs more than a short one with
// common words: what is past them is not read.
const (
	maxQueryBytes = 1024
	maxQueryWords = 24
	maxExpansions = 16
	MaxLimit      = 50
)

// synonymWeight is how much a synonym's match counts against the word's
// own: enough to find an action described in other words, not enough to
// pass one described in the query's.
const synonymWeight = 0.6

// Hit is one doc a query found, with its score.
type Hit struct {
	Doc   int
	Score float32
}

// Search returns the docs that best match query, best first, at most
// limit of them (1 to MaxLimit), among those allow accepts (all when
// allow is nil): a caller never finds what its view hides. Docs that
// share no word, synonym or nearness of meaning with the query are not
// returned. It appends to hits and returns the result.
func (ix *Index) Search(query string, limit int, allow func(doc int) bool, hits []Hit) []Hit {
	limit = min(max(limit, 1), MaxLimit)
	if len(query) > maxQueryBytes {
		query = query[:maxQueryBytes]
	}
	var seenBuf [maxQueryWords]string
	seen := seenBuf[:0]
	acc := ix.scratch.Get().(*accumulator)
	defer ix.release(acc)
	// The query's words, stop words too, with their stems: a phrase
	// WordNet knows is scored for its words, which are then not scored
	// alone ("call off" is cancel, not a call).
	var ws [2 * maxQueryWords]qword
	n := 0
	words(query, func(w string) bool {
		ws[n] = qword{w: w, stem: w, stop: stopWord(w)}
		if !ws[n].stop {
			ws[n].stem = ix.stem(w)
		}
		n++
		return n < len(ws)
	})
	var key [64]byte // a phrase's stems joined, as the table has them
	for i := 0; i < n && len(seen) < maxQueryWords; {
		if k := ix.phraseAt(ws[i:n], key[:0]); k > 0 {
			ix.scoreTerms(acc, ix.expand[string(joinStems(key[:0], ws[i:i+k]))])
			i += k
			continue
		}
		w := ws[i]
		i++
		if w.stop || slices.Contains(seen, w.w) {
			continue
		}
		seen = append(seen, w.w)
		ix.scoreWord(acc, w.stem)
	}
	if exact, ok := ix.names[strings.ToLower(strings.TrimSpace(query))]; ok {
		if acc.score[exact] == 0 {
			acc.touched = append(acc.touched, exact)
		}
		acc.score[exact] += 1000 // the name itself, as listed
	}
	start := len(hits)
	for _, d := range acc.touched {
		h := Hit{Doc: int(d), Score: acc.score[d]}
		if top := hits[start:]; len(top) == limit && !better(h, top[limit-1]) {
			continue // it would not enter: allow, which may cost a view's lookup, is not asked
		}
		if allow != nil && !allow(h.Doc) {
			continue
		}
		hits = insert(hits, start, limit, h)
	}
	return hits
}

// scoreWord adds one query word's best match in each doc to acc: its own
// term's impact, or a synonym's at synonymWeight, whichever is more. A
// word the index lacks may be a short form of one it has, or a long
// form: see scoreClipped.
func (ix *Index) scoreWord(acc *accumulator, stem string) {
	if t, ok := ix.terms[stem]; ok {
		ix.match(acc, t, 1)
	} else if len(stem) >= minClipped {
		ix.scoreClipped(acc, stem)
	}
	for _, t := range ix.expand[stem] {
		ix.match(acc, t, synonymWeight)
	}
	ix.flushWord(acc)
}

// scoreTerms adds a phrase's best match in each doc to acc, as one more
// word whose every match is a synonym's.
func (ix *Index) scoreTerms(acc *accumulator, terms []int32) {
	for _, t := range terms {
		ix.match(acc, t, synonymWeight)
	}
	ix.flushWord(acc)
}

// flushWord adds the current word's matches to the query's scores.
func (ix *Index) flushWord(acc *accumulator) {
	for _, d := range acc.wordTouched {
		if acc.score[d] == 0 {
			acc.touched = append(acc.touched, d)
		}
		acc.score[d] += acc.word[d]
		acc.word[d] = 0
	}
	acc.wordTouched = acc.wordTouched[:0]
}

// match records term t's postings, scaled by weight, as the current
// word's match where it beats what the word matched there already.
func (ix *Index) match(acc *accumulator, t int32, weight float32) {
	for _, p := range ix.postings[t] {
		s := p.impact * weight
		switch cur := acc.word[p.doc]; {
		case cur == 0:
			acc.wordTouched = append(acc.wordTouched, p.doc)
			acc.word[p.doc] = s
		case s > cur:
			acc.word[p.doc] = s
		}
	}
}

// release clears acc's scores and returns it to the pool.
func (ix *Index) release(acc *accumulator) {
	for _, d := range acc.touched {
		acc.score[d] = 0
	}
	acc.touched = acc.touched[:0]
	ix.scratch.Put(acc)
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
