package main

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"
)

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

// plural is "1 tool", "2 tools", "3 entries".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if strings.HasSuffix(noun, "y") {
		return fmt.Sprintf("%d %sies", n, strings.TrimSuffix(noun, "y"))
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// table aligns columns like a tabwriter and drops the spaces left at the
// end of lines whose last cells are empty.
type table struct {
	buf bytes.Buffer
	tw  *tabwriter.Writer
	w   io.Writer
}

func newTable(w io.Writer) *table {
	t := &table{w: w}
	t.tw = tabwriter.NewWriter(&t.buf, 2, 4, 2, ' ', 0)
	return t
}

// Write adds text; cells are separated by tabs, rows end with newlines.
func (t *table) Write(p []byte) (int, error) { return t.tw.Write(p) }

// flush writes the aligned rows.
func (t *table) flush() {
	_ = t.tw.Flush()
	lines := bytes.Split(t.buf.Bytes(), []byte("\n"))
	for i, l := range lines {
		lines[i] = bytes.TrimRight(l, " ")
	}
	_, _ = t.w.Write(bytes.Join(lines, []byte("\n")))
}
