package vurbtest

import (
	"fmt"
	"strings"
)

// diffContext is how many unchanged lines a hunk shows around a change.
const diffContext = 3

// maxDiffCells bounds the table of the longest-common-subsequence search
// (rows × columns, after the common head and tail are set aside); beyond
// it the changed middle is shown as removed, then added.
const maxDiffCells = 4 << 20 // 16 MiB of int32: two files of 2,000 lines

// edit is one line of a diff: ' ' kept, '-' only in want, '+' only in got;
// a and b are the line's (or, for the other side, the next line's) index
// in want and got.
type edit struct {
	op   byte
	text string
	a, b int
}

// lineDiff returns a unified diff of want and got, by lines, with hunk
// headers and diffContext lines of context, or "" when they are equal.
func lineDiff(want, got string) string {
	edits := diffLines(splitLines(want), splitLines(got))
	var out strings.Builder
	for i := 0; i < len(edits); {
		if edits[i].op == ' ' {
			i++
			continue
		}
		lo, hi := max(i-diffContext, 0), i // the hunk is edits[lo:hi]
		for hi < len(edits) {
			if edits[hi].op != ' ' {
				hi++
				continue
			}
			next := hi // the next change, if it is close enough to join
			for next < len(edits) && edits[next].op == ' ' {
				next++
			}
			if next == len(edits) || next-hi > 2*diffContext {
				hi = min(hi+diffContext, len(edits))
				break
			}
			hi = next
		}
		writeHunk(&out, edits[lo:hi])
		i = hi
	}
	return out.String()
}

func writeHunk(out *strings.Builder, hunk []edit) {
	var na, nb int
	for _, e := range hunk {
		if e.op != '+' {
			na++
		}
		if e.op != '-' {
			nb++
		}
	}
	start := func(pos, n int) int {
		if n == 0 {
			return pos
		}
		return pos + 1
	}
	fmt.Fprintf(out, "@@ -%d,%d +%d,%d @@\n", start(hunk[0].a, na), na, start(hunk[0].b, nb), nb)
	for _, e := range hunk {
		out.WriteByte(e.op)
		out.WriteString(e.text)
		out.WriteByte('\n')
	}
}

// diffLines is an edit script from a to b: the common head and tail kept,
// the middle by longest common subsequence.
func diffLines(a, b []string) []edit {
	head := 0
	for head < len(a) && head < len(b) && a[head] == b[head] {
		head++
	}
	tail := 0
	for tail < len(a)-head && tail < len(b)-head && a[len(a)-1-tail] == b[len(b)-1-tail] {
		tail++
	}
	var edits []edit
	for i := range head {
		edits = append(edits, edit{' ', a[i], i, i})
	}
	edits = append(edits, diffMiddle(a[head:len(a)-tail], b[head:len(b)-tail], head, maxDiffCells)...)
	for k := tail; k > 0; k-- {
		i, j := len(a)-k, len(b)-k
		edits = append(edits, edit{' ', a[i], i, j})
	}
	return edits
}

// diffMiddle diffs a and b, which start at line off of both texts, by
// longest common subsequence when its table has at most cells cells.
func diffMiddle(a, b []string, off, cells int) []edit {
	n, m := len(a), len(b)
	var edits []edit
	if n*m > cells {
		for i, s := range a {
			edits = append(edits, edit{'-', s, off + i, off})
		}
		for j, s := range b {
			edits = append(edits, edit{'+', s, off + n, off + j})
		}
		return edits
	}
	// lcs[i][j] is the length of the longest common subsequence of a[i:] and b[j:].
	lcs := make([][]int32, n+1)
	for i := range lcs {
		lcs[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i] == b[j]:
			edits = append(edits, edit{' ', a[i], off + i, off + j})
			i, j = i+1, j+1
		case j == m || (i < n && lcs[i+1][j] >= lcs[i][j+1]):
			edits = append(edits, edit{'-', a[i], off + i, off + j})
			i++
		default:
			edits = append(edits, edit{'+', b[j], off + i, off + j})
			j++
		}
	}
	return edits
}

// splitLines splits s into lines without their line ends; a final line
// end does not start an empty line.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}
