package schema

import (
	"encoding/json"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The keywords below are left out of a property's schema because something
// else in it already says what they say. Every token of a tool's schema
// sits in the model's context on every turn, so a schema states each fact
// once; the validator is unchanged, since it checks the rules, not the
// schema's words.

// dropNameEcho removes the description of property name when it only
// repeats the name: "Workspace ID" on workspace_id, "Due date" on dueDate.
// The model reads the name already; the description added nothing.
func dropNameEcho(p *node, name string) {
	if d := p.str("description"); d != "" && sameWords(d, name) {
		p.del("description")
	}
}

// echoedTitle is the description tag of field f when the schema p leaves it
// out for only repeating the name (see Field.Title), else "". A title the
// field declares itself (its schema's title) is the label instead; and p
// may still hold a description, a note of the field's rules (see
// addNotes), which the echo was not part of.
func echoedTitle(f fieldInfo, p *node) string {
	if t := p.str("title"); t != "" {
		return t
	}
	d := f.sf.Tag.Get("description")
	if d == "" || p.str("description") == d || !sameWords(d, f.name) {
		return ""
	}
	return d
}

// sameWords reports whether a and b are the same words once case,
// punctuation and separators are set aside.
func sameWords(a, b string) bool {
	return letters(a) == letters(b)
}

func letters(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToLower(r)
		}
		return -1
	}, s)
}

// dropImpliedLengths removes minLength and maxLength from a string property
// whose enum they cannot narrow: the minLength 1 of a required string is
// implied by an enum of non-empty strings.
func dropImpliedLengths(p *node) {
	enum, ok := p.get("enum")
	if !ok {
		return
	}
	values, ok := enum.([]any)
	if !ok || len(values) == 0 {
		return
	}
	shortest, longest := -1, 0
	for _, v := range values {
		s, ok := v.(string)
		if !ok {
			return
		}
		n := utf8.RuneCountInString(s)
		if shortest < 0 || n < shortest {
			shortest = n
		}
		longest = max(longest, n)
	}
	if min, ok := intKeyword(p, "minLength"); ok && min <= shortest {
		p.del("minLength")
	}
	if max, ok := intKeyword(p, "maxLength"); ok && max >= longest {
		p.del("maxLength")
	}
}

// intKeyword reads keyword k of p as an integer.
func intKeyword(p *node, k string) (int, bool) {
	v, ok := p.get(k)
	if !ok {
		return 0, false
	}
	num, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	n, err := num.Int64()
	if err != nil {
		return 0, false
	}
	return int(n), true
}
