package search

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// words splits s into lowercase words for the index and the query: at
// every character that is neither a letter nor a digit, at the humps of
// camelCase ("listInvoices": list, invoices) and between letters and
// digits ("v2": v, 2). It calls yield for each word, in order, and stops
// early when yield returns false.
func words(s string, yield func(string) bool) {
	start := -1
	var prev rune
	flush := func(end int) bool {
		if start < 0 {
			return true
		}
		w := s[start:end]
		start = -1
		return yield(strings.ToLower(w))
	}
	for i, r := range s {
		if r == utf8.RuneError {
			if !flush(i) {
				return
			}
			prev = 0
			continue
		}
		alnum := unicode.IsLetter(r) || unicode.IsDigit(r)
		if !alnum {
			if !flush(i) {
				return
			}
			prev = r
			continue
		}
		if start >= 0 && boundary(prev, r, s[i:]) {
			if !flush(i) {
				return
			}
		}
		if start < 0 {
			start = i
		}
		prev = r
	}
	flush(len(s))
}

// boundary reports whether a word ends between prev and r: a lower-case
// letter before an upper-case one, an upper-case run before its last
// letter when a lower-case one follows ("HTTPServer": HTTP, Server), or a
// change between letters and digits.
func boundary(prev, r rune, rest string) bool {
	switch {
	case unicode.IsDigit(prev) != unicode.IsDigit(r):
		return true
	case unicode.IsLower(prev) && unicode.IsUpper(r):
		return true
	case unicode.IsUpper(prev) && unicode.IsUpper(r):
		_, size := utf8.DecodeRuneInString(rest)
		next, _ := utf8.DecodeRuneInString(rest[size:])
		return unicode.IsLower(next)
	}
	return false
}

// stopWord reports whether w is left out of queries: a word that says
// nothing of which action is meant. Documents keep them (they cost little
// there), so a name made of one still matches itself.
func stopWord(w string) bool {
	switch w {
	case "a", "an", "the", "and", "or", "of", "to", "for", "in", "on", "at",
		"by", "with", "from", "as", "is", "are", "be", "been", "was", "were",
		"it", "its", "this", "that", "these", "those", "there", "here", "i",
		"me", "my", "we", "us", "our", "you", "your", "he", "she", "they",
		"them", "their", "can", "could", "would", "should", "will", "shall",
		"may", "might", "must", "do", "does", "did", "please", "just", "so",
		"then", "than", "some", "any", "all", "every", "each", "no", "not",
		"one", "also", "too", "very", "really", "want", "need", "like",
		"let":
		return true
	}
	return false
}
