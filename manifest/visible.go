package manifest

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Visible returns s as a terminal shows it and never acts on it: every
// character a terminal would execute or that can hide text is written as
// an escape a person reads (ESC as \x1b, a right-to-left override as
// \u202e), the rest is kept. A server chooses its names, descriptions,
// enum values and error messages, and one that wrote them raw could
// retitle the terminal, write to the clipboard (OSC 52), or erase a line
// such as "BREAKING  tools/delete_everything: ..." from what a reviewer
// reads. Change.String and Drift.String go through it, and so does every
// line of the vurb command that holds a server's text.
//
// Escaped are the C0 controls (newline and tab included: in a one-line
// field a newline could forge the next line), DEL, the C1 controls, the
// Unicode format characters (bidirectional overrides and isolates, zero
// width characters, the byte order mark), the line and paragraph
// separators, and bytes that are not UTF-8. A backslash is kept as it is:
// the escapes make text visible, they are not meant to be read back.
func Visible(s string) string { return visible(s, false) }

// VisibleLines is Visible for text that is shown as lines, such as a
// tool's text result or the end of a server's standard error: newlines
// and tabs are kept (a CRLF becomes a newline), everything else Visible
// escapes is escaped.
func VisibleLines(s string) string { return visible(s, true) }

// visible escapes what hides reports, keeping newlines and tabs when lines
// is true. Text with nothing to escape is returned as it is, without a
// copy: most text is plain.
func visible(s string, lines bool) string {
	i := firstHidden(s, lines)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case lines && r == '\r' && strings.HasPrefix(s[i+1:], "\n"):
			// a CRLF line end is a line end
		case !hides(r, lines):
			b.WriteString(s[i : i+size])
		case r < 0x80:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r <= 0xffff:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			fmt.Fprintf(&b, `\U%08x`, r)
		}
		i += size
	}
	return b.String()
}

// firstHidden is the index of the first byte visible must escape, -1 when
// there is none.
func firstHidden(s string, lines bool) int {
	for i, r := range s {
		if r == utf8.RuneError || hides(r, lines) {
			return i
		}
	}
	return -1
}

// hides reports whether a terminal may act on r instead of showing it, or
// show nothing for it: a control character (C0, DEL, C1), a format
// character (category Cf: bidi controls, zero-width characters, U+FEFF,
// the tag characters) or a line or paragraph separator. With lines, a
// newline and a tab are text.
func hides(r rune, lines bool) bool {
	if lines && (r == '\n' || r == '\t') {
		return false
	}
	return r < 0x20 || r >= 0x7f && r <= 0x9f || r == '\u2028' || r == '\u2029' || unicode.Is(unicode.Cf, r)
}
