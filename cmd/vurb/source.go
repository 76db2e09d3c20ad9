package main

import (
	"fmt"
	"os"
	"strings"
)

// sourceKind is what a server argument names.
type sourceKind int

const (
	commandSource  sourceKind = iota // a command line, run over stdio
	urlSource                        // a streamable HTTP endpoint
	manifestSource                   // a manifest file
)

// source is a parsed server argument.
type source struct {
	raw   string
	kind  sourceKind
	words []string // the command line, for commandSource
}

// String names the source in messages.
func (s source) String() string { return s.raw }

// parseSource reads a server argument: a URL, a manifest file (when
// manifests are accepted: an existing file ending in .json), or a command
// line.
func parseSource(arg string, manifests bool) (source, error) {
	s := source{raw: arg}
	switch {
	case strings.HasPrefix(arg, "http://") || strings.HasPrefix(arg, "https://"):
		s.kind = urlSource
		return s, nil
	case manifests && strings.HasSuffix(arg, ".json"):
		if _, err := os.Stat(arg); err != nil {
			return s, fmt.Errorf("manifest %s: %w", arg, err)
		}
		s.kind = manifestSource
		return s, nil
	}
	words, err := splitWords(arg)
	if err != nil {
		return s, usagef("server %q: %v", arg, err)
	}
	if len(words) == 0 {
		return s, usagef("the server is empty: give a URL or a command line")
	}
	s.words = words
	return s, nil
}

// splitWords splits a command line as a POSIX shell would, without
// expansions: words separated by blanks, single quotes keeping everything,
// double quotes keeping all but \" and \\, a backslash escaping the next
// character.
func splitWords(line string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\'':
			end := strings.IndexByte(line[i+1:], '\'')
			if end < 0 {
				return nil, fmt.Errorf("unclosed single quote")
			}
			cur.WriteString(line[i+1 : i+1+end])
			i += end + 1
			inWord = true
		case c == '"':
			i++
			for ; i < len(line) && line[i] != '"'; i++ {
				if line[i] == '\\' && i+1 < len(line) && (line[i+1] == '"' || line[i+1] == '\\') {
					i++
				}
				cur.WriteByte(line[i])
			}
			if i >= len(line) {
				return nil, fmt.Errorf("unclosed double quote")
			}
			inWord = true
		case c == '\\':
			if i+1 < len(line) {
				i++
				cur.WriteByte(line[i])
			}
			inWord = true
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}
