package search

import (
	"slices"
	"strings"
)

// minClipped is the shortest stem taken for a clipped word: below four
// letters a prefix says too little ("re", "con").
const minClipped = 4

// scoreClipped matches a stem the index lacks as a synonym of the terms
// it is a clipping of ("repo": repository, "admin": administrator, at
// most maxExpansions of them) and of the longest term that is a clipping
// of it ("administr": admin). People shorten words in queries and names
// alike, and no synonym table lists every clipping.
func (ix *Index) scoreClipped(acc *accumulator, stem string) {
	i, _ := slices.BinarySearch(ix.sorted, stem)
	for n := 0; i < len(ix.sorted) && n < maxExpansions && strings.HasPrefix(ix.sorted[i], stem); i, n = i+1, n+1 {
		ix.match(acc, ix.terms[ix.sorted[i]], synonymWeight)
	}
	for k := len(stem) - 1; k >= minClipped; k-- {
		if t, ok := ix.terms[stem[:k]]; ok {
			ix.match(acc, t, synonymWeight)
			return
		}
	}
}
