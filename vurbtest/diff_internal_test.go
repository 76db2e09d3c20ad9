package vurbtest

import (
	"strings"
	"testing"
)

func TestLineDiff(t *testing.T) {
	lines := func(n int) []string {
		var out []string
		for i := 1; i <= n; i++ {
			out = append(out, string(rune('a'+i-1)))
		}
		return out
	}
	text := func(l []string) string { return strings.Join(l, "\n") + "\n" }
	edited := func(n int, f func([]string) []string) string { return text(f(lines(n))) }
	for _, tc := range []struct {
		name, want, got, diff string
	}{
		{"equal", "a\nb\n", "a\nb\n", ""},
		{"both empty", "", "", ""},
		{"one line changed, context around", text(lines(9)),
			edited(9, func(l []string) []string { l[4] = "E"; return l }),
			"@@ -2,7 +2,7 @@\n b\n c\n d\n-e\n+E\n f\n g\n h\n"},
		{"added at the start", text(lines(5)),
			edited(5, func(l []string) []string { return append([]string{"0"}, l...) }),
			"@@ -1,3 +1,4 @@\n+0\n a\n b\n c\n"},
		{"removed at the end", text(lines(5)),
			edited(5, func(l []string) []string { return l[:4] }),
			"@@ -2,4 +2,3 @@\n b\n c\n d\n-e\n"},
		{"two changes far apart: two hunks", text(lines(20)),
			edited(20, func(l []string) []string { l[1], l[17] = "B", "R"; return l }),
			"@@ -1,5 +1,5 @@\n a\n-b\n+B\n c\n d\n e\n@@ -15,6 +15,6 @@\n o\n p\n q\n-r\n+R\n s\n t\n"},
		{"two changes close together: one hunk", text(lines(12)),
			edited(12, func(l []string) []string { l[3], l[8] = "D", "I"; return l }),
			"@@ -1,12 +1,12 @@\n a\n b\n c\n-d\n+D\n e\n f\n g\n h\n-i\n+I\n j\n k\n l\n"},
		{"from nothing", "", "x\ny\n", "@@ -0,0 +1,2 @@\n+x\n+y\n"},
		{"missing final line end", "a\nb", "a\nb\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := lineDiff(tc.want, tc.got); got != tc.diff {
				t.Errorf("lineDiff\n got: %q\nwant: %q", got, tc.diff)
			}
		})
	}
}

func TestDiffMiddleBeyondItsTable(t *testing.T) {
	a, b := []string{"x", "same", "y"}, []string{"same", "z"}
	var got []string
	for _, e := range diffMiddle(a, b, 0, 5) { // 3×2 cells > 5
		got = append(got, string(e.op)+e.text)
	}
	want := []string{"-x", "-same", "-y", "+same", "+z"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("got %q, want %q", got, want)
	}
	got = nil
	for _, e := range diffMiddle(a, b, 0, 6) {
		got = append(got, string(e.op)+e.text)
	}
	want = []string{"-x", " same", "-y", "+z"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("got %q, want %q", got, want)
	}
}
