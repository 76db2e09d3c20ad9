package manifest_test

import (
	"testing"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb/manifest"
)

func TestVisible(t *testing.T) {
	is := is.New(t)
	for _, tc := range []struct{ in, line, lines string }{
		{"plain text, é, 日本, ✓ and a \\ kept", "plain text, é, 日本, ✓ and a \\ kept", "plain text, é, 日本, ✓ and a \\ kept"},
		{"\x1b]0;pwned\x07title", `\x1b]0;pwned\x07title`, `\x1b]0;pwned\x07title`},
		{"\x1b]52;c;ZWNobyBoaQ==\x07", `\x1b]52;c;ZWNobyBoaQ==\x07`, `\x1b]52;c;ZWNobyBoaQ==\x07`}, // OSC 52: the clipboard
		{"a\r\x1b[2Kb", `a\x0d\x1b[2Kb`, `a\x0d\x1b[2Kb`},                                          // return, erase the line
		{"one\ntwo\tthree\r\n", `one\x0atwo\x09three\x0d\x0a`, "one\ntwo\tthree\n"},
		{"del\x7f c1\u009b31m nel\u0085", `del\x7f c1\u009b31m nel\u0085`, `del\x7f c1\u009b31m nel\u0085`},
		{"admin\u202e\u2066gnp.exe\u2069", `admin\u202e\u2066gnp.exe\u2069`, `admin\u202e\u2066gnp.exe\u2069`}, // bidi
		{"zero\u200bwidth\ufeff\u2028", `zero\u200bwidth\ufeff\u2028`, `zero\u200bwidth\ufeff\u2028`},
		{"tag\U000e0041", `tag\U000e0041`, `tag\U000e0041`},
		{"bad \xff\xfe utf-8", `bad \xff\xfe utf-8`, `bad \xff\xfe utf-8`},
	} {
		is.Equal(manifest.Visible(tc.in), tc.line)
		is.Equal(manifest.VisibleLines(tc.in), tc.lines)
	}
}

// TestPrintedChangesAreVisible: a server's names reach Change.String and
// Drift.String, which the vurb command prints; a name that erased the line
// before it hid a breaking change from the reviewer.
func TestPrintedChangesAreVisible(t *testing.T) {
	is := is.New(t)
	evil := "x\r\x1b[1A\x1b[2K"
	c := manifest.Change{Kind: manifest.ToolRemoved, Breaking: true, Path: "tools/" + evil, Reason: "title changed from \"\x1b]0;t\x07\""}
	is.Equal(c.String(), `BREAKING    tools/x\x0d\x1b[1A\x1b[2K: title changed from "\x1b]0;t\x07"`)
	d := manifest.Drift{Kind: "tool", Name: evil, Change: "removed"}
	is.Equal(d.String(), `tool x\x0d\x1b[1A\x1b[2K removed`)
}
