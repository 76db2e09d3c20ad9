package main

import (
	"bufio"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/kljensen/snowball/english"
)

// plain reports whether a WordNet lemma is made of plain words: letters,
// joined by "_" in a phrase of at most three.
func plain(lemma string) bool {
	ws := strings.Split(lemma, "_")
	if len(ws) > 3 {
		return false
	}
	for _, w := range ws {
		if w == "" {
			return false
		}
		for _, r := range w {
			if r < 'a' || r > 'z' {
				return false
			}
		}
	}
	return true
}

// stem is a lemma as search keys it: each word's Porter2 stem, joined by
// "_".
func stem(lemma string) string {
	ws := strings.Split(lemma, "_")
	for i, w := range ws {
		ws[i] = english.Stem(w, false)
	}
	return strings.Join(ws, "_")
}

// readIndex reads an index.pos file (lemma pos synset_cnt p_cnt {ptr}
// sense_cnt tagsense_cnt {offset}, senses by frequency) and adds each
// lemma's neighbours to table.
func readIndex(path, pos string, synsets map[string]*synset, table map[string][]string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "  ") {
			continue
		}
		fs := strings.Fields(line)
		lemma := fs[0]
		if !plain(lemma) {
			continue
		}
		var pc int
		fmt.Sscanf(fs[3], "%d", &pc)
		offsets := fs[4+pc+2:]
		var tagged int
		fmt.Sscanf(fs[4+pc+1], "%d", &tagged)
		senses := max(1, min(tagged, sensesPerPOS))
		head := stem(lemma)
		list := table[head]
		add := func(w string) {
			if strings.Contains(w, "_") || !plain(w) {
				return // the index holds single words
			}
			s := english.Stem(w, false)
			if s != head && !slices.Contains(list, s) && len(list) < maxNeighbours {
				list = append(list, s)
			}
		}
		var near []*synset
		for _, off := range offsets[:min(len(offsets), senses)] {
			if s := synsets[key(pos, off)]; s != nil {
				near = append(near, s)
			}
		}
		for _, s := range near {
			for _, w := range s.words {
				add(w)
			}
		}
		for _, s := range near {
			for _, d := range s.deriv[lemma] {
				var k string
				var n int
				fmt.Sscanf(d, "%s %d", &k, &n)
				if t := synsets[k]; t != nil && n >= 1 && n <= len(t.words) {
					add(t.words[n-1])
				}
			}
		}
		for _, s := range near {
			for _, near := range s.near {
				if n := synsets[near]; n != nil {
					for _, w := range n.words {
						add(w)
					}
				}
			}
		}
		if len(list) > 0 {
			table[head] = list
		}
	}
	return sc.Err()
}
