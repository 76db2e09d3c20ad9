// Command wordnetgen derives the synonym table of package search from the
// WordNet 3.0 database (Debian's wordnet-base: /usr/share/wordnet), so
// that the table comes from a general source and not from any test set.
//
// For every lemma of WordNet's index (nouns, verbs, adjectives and
// adverbs; a phrase of up to three words such as "get rid of" as well as
// a single word), it takes the lemma's first senses in each part of
// speech (WordNet orders them by frequency) that the SemCor corpus
// attests (index.pos's tagsense_cnt), at most three and at least one,
// and, as its neighbours: the other single words of those synsets; the
// lemma's derivationally related forms there (erase: erasure); for an
// adjective, the synsets similar to it; and, for a verb, the synsets one
// hypernym or hyponym away (delete is a kind of remove). Heads and
// neighbours are written as the stems search indexes (Porter2; a
// phrase's stems joined by "_"), at most maxNeighbours a head, nearest
// senses first.
//
//	go run ./internal/wordnetgen -dict /usr/share/wordnet -o synonyms_wordnet.go
package main

import (
	"flag"
	"log"
	"path/filepath"
)

const (
	sensesPerPOS  = 3
	maxNeighbours = 16
)

// parts are WordNet's parts of speech: the name of their files and
// their letter in pointers.
var parts = []struct{ file, pos string }{
	{"noun", "n"}, {"verb", "v"}, {"adj", "a"}, {"adv", "r"},
}

func main() {
	dict := flag.String("dict", "/usr/share/wordnet", "the WordNet database directory")
	out := flag.String("o", "synonyms_wordnet.go", "the Go file to write")
	flag.Parse()
	synsets := map[string]*synset{} // key(pos, offset) → synset
	for _, p := range parts {
		if err := readData(filepath.Join(*dict, "data."+p.file), synsets); err != nil {
			log.Fatal(err)
		}
	}
	table := map[string][]string{} // head stem → neighbour stems, in order
	for _, p := range parts {
		if err := readIndex(filepath.Join(*dict, "index."+p.file), p.pos, synsets, table); err != nil {
			log.Fatal(err)
		}
	}
	if err := write(*out, table); err != nil {
		log.Fatal(err)
	}
}
