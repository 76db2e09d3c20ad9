package search

import "github.com/kljensen/snowball/english"

// qword is one word of a query, stop words included, as phrases are
// looked up: WordNet lists phrases ("call off", "get rid of", "wipe
// out") as lemmas of their own, and their meaning is seldom that of
// their words, so a phrase the index expands is scored for its words.
type qword struct {
	w, stem string // stem is w itself for a stop word
	stop    bool
}

// stem is w's stem: the one computed at build for a word the index has
// seen.
func (ix *Index) stem(w string) string {
	if t, ok := ix.surface[w]; ok {
		return ix.stems[t]
	}
	return english.Stem(w, false)
}

// phraseAt returns how many words at the start of ws (3 or 2, the longer
// first) make a phrase the index expands, or 0. buf is room for the
// phrase's key.
func (ix *Index) phraseAt(ws []qword, buf []byte) int {
	for k := 3; k >= 2; k-- {
		if k > len(ws) || (k == 2 && ws[0].stop && ws[1].stop) {
			continue
		}
		if _, ok := ix.expand[string(joinStems(buf, ws[:k]))]; ok {
			return k
		}
	}
	return 0
}

// joinStems appends the stems of ws to buf, joined by "_", as the
// synonym table writes a phrase.
func joinStems(buf []byte, ws []qword) []byte {
	for i, w := range ws {
		if i > 0 {
			buf = append(buf, '_')
		}
		buf = append(buf, w.stem...)
	}
	return buf
}
