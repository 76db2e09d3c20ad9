package glob

import (
	"fmt"
	"strings"
)

// kind says how a compiled segment consumes key segments.
type kind uint8

const (
	literal kind = iota // one key segment equal to text
	one                 // "*": any one key segment
	many                // "**": zero or more key segments
	wild                // "*" inside a segment: one key segment matching parts
)

// segment is one compiled dot segment of a pattern.
type segment struct {
	kind  kind
	text  string
	parts []string  // wild only: text split around each '*'
	chars []segment // wild only: text as a character-level pattern, for Covers
}

// Pattern is a compiled, validated glob over dotted keys. Compiling once lets
// an app reject malformed policies at build time and match many keys cheaply.
// A Pattern is immutable and safe for concurrent use.
type Pattern struct {
	src  string
	segs []segment
}

// Compile validates pattern and prepares it for matching. Validation happens
// here, at build time, so that a malformed policy is reported with the
// offending pattern and segment instead of never matching at run time.
func Compile(pattern string) (*Pattern, error) {
	if pattern == "" {
		return nil, fmt.Errorf("glob %q: empty pattern", pattern)
	}
	raw := strings.Split(pattern, ".")
	segs := make([]segment, 0, len(raw))
	for i, text := range raw {
		seg, problem := parseSegment(text)
		if problem != "" {
			return nil, fmt.Errorf("glob %q: %s at position %d", pattern, problem, i+1)
		}
		// "**.**" means the same as "**"; folding runs keeps the simulation small.
		if seg.kind == many && len(segs) > 0 && segs[len(segs)-1].kind == many {
			continue
		}
		segs = append(segs, seg)
	}
	return &Pattern{src: pattern, segs: segs}, nil
}

// MustCompile is Compile for patterns fixed in source code, where an invalid
// pattern is a programming error; it panics instead of returning the error.
func MustCompile(pattern string) *Pattern {
	p, err := Compile(pattern)
	if err != nil {
		panic(err)
	}
	return p
}

// String returns the pattern exactly as written, so diagnostics can quote
// the policy the user wrote rather than a normalised form.
func (p *Pattern) String() string { return p.src }

// parseSegment compiles one dot segment; problem is non-empty when the
// segment is invalid and describes what is wrong with it.
func parseSegment(text string) (seg segment, problem string) {
	if text == "" {
		return segment{}, "empty segment"
	}
	for _, r := range text {
		if !validRune(r) {
			return segment{}, fmt.Sprintf("invalid character %q in segment %q", r, text)
		}
	}
	switch {
	case text == "*":
		return segment{kind: one, text: text}, ""
	case text == "**":
		return segment{kind: many, text: text}, ""
	case strings.Contains(text, "**"):
		return segment{}, fmt.Sprintf(`"**" mixed with other text in segment %q`, text)
	case strings.Contains(text, "*"):
		return segment{kind: wild, text: text, parts: strings.Split(text, "*"), chars: charPattern(text)}, ""
	}
	return segment{kind: literal, text: text}, ""
}

// validRune reports whether r may appear in a pattern segment.
func validRune(r rune) bool {
	switch {
	case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z', '0' <= r && r <= '9':
		return true
	}
	return r == '_' || r == '-' || r == '*'
}

// charPattern rewrites a within-segment wildcard as a pattern over single
// characters ('*' becoming "zero or more"), so Covers can compare two such
// segments with the same engine it uses for whole keys.
func charPattern(text string) []segment {
	chars := make([]segment, 0, len(text))
	for i := range len(text) {
		if text[i] == '*' {
			chars = append(chars, segment{kind: many, text: "*"})
			continue
		}
		chars = append(chars, segment{kind: literal, text: text[i : i+1]})
	}
	return chars
}
