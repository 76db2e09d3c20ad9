package search

import (
	"maps"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/kljensen/snowball/english"
)

// Doc is what search reads of one action.
type Doc struct {
	Name        string // as listed: "invoices_list" or "invoices.list"
	Hint        string // the author's search words (SearchHint), never listed
	Description string
	Tags        []string
	Params      []Param
}

// Param is one parameter of an action's input.
type Param struct {
	Name, Description string
}

// A field of a Doc, for BM25F: each has its weight and its length
// normalisation.
type field int

const (
	fieldName field = iota
	fieldHint
	fieldTags
	fieldDescription
	fieldParamName
	fieldParamText
	numFields
)

// weight is how much one occurrence of a word in f counts, and norm how
// much a long f dilutes it (BM25's b): the name and the hint are what the
// author chose to say the action is; a description says it at more
// length; parameters say what it takes, not what it does.
func (f field) weight() (w, norm float64) {
	switch f {
	case fieldName, fieldHint:
		return 3, 0.3
	case fieldTags:
		return 1.5, 0.3
	case fieldDescription:
		return 1, 0.75
	case fieldParamName:
		return 0.75, 0.5
	default:
		return 0.35, 0.75
	}
}

// k1 is BM25's saturation: how fast repeating a word stops adding to a
// score (the usual 1.2).
const k1 = 1.2

// Index is the searchable form of an app's actions, built once by Build.
// It is safe for concurrent use.
type Index struct {
	docs     []string           // names, by doc number
	terms    map[string]int32   // stem → term
	stems    []string           // term → stem
	sorted   []string           // the stems, sorted
	surface  map[string]int32   // a word as written at build → its term
	names    map[string]int32   // a whole name, lowercased → doc
	postings [][]posting        // by term
	expand   map[string][]int32 // a stem → the terms of its synonyms
	idf      []float32          // by term
	scratch  sync.Pool          // *accumulator
}

type posting struct {
	doc    int32
	impact float32 // idf · BM25F saturation of the term in the doc
}

// accumulator holds one query's scores, reused from query to query:
// score sums the query's words, word holds one word's best match per doc
// (its own term or a synonym, whichever counts more).
type accumulator struct {
	score, word          []float32
	touched, wordTouched []int32
}

// Build indexes docs; a query's hits name docs by their position here.
func Build(docs []Doc) *Index {
	ix := &Index{
		docs:    make([]string, len(docs)),
		terms:   map[string]int32{},
		surface: map[string]int32{},
		names:   map[string]int32{},
	}
	// Count each term's occurrences per field and doc, and each field's
	// length per doc.
	type count struct {
		doc int32
		tf  [numFields]float64
	}
	var counts [][]count // by term
	lengths := make([][numFields]float64, len(docs))
	var total [numFields]float64
	add := func(d int, f field, text string) {
		words(text, func(w string) bool {
			t, ok := ix.surface[w]
			if !ok {
				stem := english.Stem(w, false)
				if t, ok = ix.terms[stem]; !ok {
					t = int32(len(counts))
					ix.terms[stem] = t
					ix.stems = append(ix.stems, stem)
					counts = append(counts, nil)
				}
				ix.surface[w] = t
			}
			c := counts[t]
			if len(c) == 0 || c[len(c)-1].doc != int32(d) {
				c = append(c, count{doc: int32(d)})
			}
			c[len(c)-1].tf[f]++
			counts[t] = c
			lengths[d][f]++
			total[f]++
			return true
		})
	}
	for d, doc := range docs {
		ix.docs[d] = doc.Name
		ix.names[strings.ToLower(doc.Name)] = int32(d)
		add(d, fieldName, doc.Name)
		add(d, fieldHint, doc.Hint)
		add(d, fieldDescription, doc.Description)
		for _, tag := range doc.Tags {
			add(d, fieldTags, tag)
		}
		for _, p := range doc.Params {
			add(d, fieldParamName, p.Name)
			add(d, fieldParamText, p.Description)
		}
	}
	var avg [numFields]float64
	for f := range avg {
		avg[f] = max(total[f]/float64(max(len(docs), 1)), 1)
	}
	n := float64(len(docs))
	ix.postings = make([][]posting, len(counts))
	ix.idf = make([]float32, len(counts))
	for t, cs := range counts {
		idf := math.Log(1 + (n-float64(len(cs))+0.5)/(float64(len(cs))+0.5))
		ix.idf[t] = float32(idf)
		ps := make([]posting, len(cs))
		for i, c := range cs {
			var tf float64
			for f := range numFields {
				if c.tf[f] == 0 {
					continue
				}
				w, b := f.weight()
				tf += w * c.tf[f] / ((1 - b) + b*lengths[c.doc][f]/avg[f])
			}
			ps[i] = posting{doc: c.doc, impact: float32(idf * tf * (k1 + 1) / (k1 + tf))}
		}
		ix.postings[t] = ps
	}
	ix.expand = synonyms(wordnetNeighbours, ix.terms)
	ix.sorted = slices.Sorted(maps.Keys(ix.terms))
	ix.scratch.New = func() any {
		return &accumulator{score: make([]float32, len(docs)), word: make([]float32, len(docs))}
	}
	return ix
}

// synonyms reads a table of neighbours (one line a stem, its neighbours'
// stems after it) into the expansions of the stems a query may hold: to
// each of them, the terms of the index among its neighbours, both ways
// (a neighbour of a term leads to it, as the term leads to its
// neighbours), at most maxExpansions each, nearest first.
func synonyms(table string, terms map[string]int32) map[string][]int32 {
	out := map[string][]int32{}
	add := func(from string, to int32) {
		list := out[from]
		if len(list) < maxExpansions && !contains(list, to) {
			out[from] = append(list, to)
		}
	}
	for line := range strings.Lines(table) {
		head, rest, _ := strings.Cut(strings.TrimSuffix(line, "\n"), " ")
		ht, headIndexed := terms[head]
		for n := range strings.FieldsSeq(rest) {
			if t, ok := terms[n]; ok {
				add(head, t)
			}
			if headIndexed {
				add(n, ht)
			}
		}
	}
	return out
}

// Len is the number of docs indexed.
func (ix *Index) Len() int { return len(ix.docs) }
