package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

// synset is one WordNet synset: its lemmas (lowercase, a phrase's words
// joined by "_"), the synsets near it and the derivationally related
// forms of each of its lemmas.
type synset struct {
	words []string
	near  []string            // keys of hypernym and hyponym synsets (verbs), similar ones (adjectives)
	deriv map[string][]string // lemma → keys "pos offset word-number" of its related forms
}

// key names a synset across the four data files (offsets repeat).
func key(pos, offset string) string {
	if pos == "s" {
		pos = "a" // a satellite adjective is an adjective
	}
	return pos + offset
}

// readData reads a data.pos file into synsets: offset lex_filenum
// ss_type w_cnt {word lex_id} p_cnt {ptr offset pos src/tgt} ... | gloss.
func readData(path string, synsets map[string]*synset) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "  ") {
			continue // the licence header
		}
		body, _, _ := strings.Cut(line, " | ")
		fs := strings.Fields(body)
		pos := fs[2]
		var wc int
		fmt.Sscanf(fs[3], "%x", &wc)
		s := &synset{deriv: map[string][]string{}}
		for i := range wc {
			w := strings.ToLower(fs[4+2*i])
			if j := strings.IndexByte(w, '('); j >= 0 {
				w = w[:j] // an adjective's marker: "(a)", "(p)", "(ip)"
			}
			s.words = append(s.words, w)
		}
		at := 4 + 2*wc
		var pc int
		fmt.Sscanf(fs[at], "%d", &pc)
		for i := range pc {
			ptr, off, tpos, st := fs[at+1+4*i], fs[at+2+4*i], fs[at+3+4*i], fs[at+4+4*i]
			switch {
			case pos == "v" && tpos == "v" && (ptr == "@" || ptr == "~"):
				s.near = append(s.near, key(tpos, off))
			case (pos == "a" || pos == "s") && ptr == "&":
				s.near = append(s.near, key(tpos, off))
			case ptr == "+":
				var src, tgt int
				fmt.Sscanf(st, "%02x%02x", &src, &tgt)
				if src >= 1 && src <= len(s.words) {
					w := s.words[src-1]
					s.deriv[w] = append(s.deriv[w], fmt.Sprintf("%s %d", key(tpos, off), tgt))
				}
			}
		}
		synsets[key(pos, fs[0])] = s
	}
	return sc.Err()
}
