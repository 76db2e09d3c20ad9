// Package search ranks an app's actions for a query: BM25F over the
// fields an author writes (name and search hint over description over
// parameters), on stemmed words, with WordNet's synonyms and phrases and
// a word's clipped forms ("repo", "admin"). The index is built once, when
// the app is built; a query costs work bounded by its own length and the
// postings of its words, and allocates nothing that grows with the app.
package search

//go:generate go run ./internal/wordnetgen -dict /usr/share/wordnet -o synonyms_wordnet.go
