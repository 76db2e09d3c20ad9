package main

import (
	"bytes"
	"testing"

	"github.com/matryer/is"
)

// TestVisibleWriter: a server's standard error passed through (-v)
// arrives in arbitrary pieces; a character split between two of them is
// shown whole, an escape in any piece is shown escaped.
func TestVisibleWriter(t *testing.T) {
	is := is.New(t)
	var out bytes.Buffer
	w := &visibleWriter{w: &out}
	in := []byte("é\u202e\x1b[2Kok\n")
	for i := range in {
		n, err := w.Write(in[i : i+1])
		is.NoErr(err)
		is.Equal(n, 1)
	}
	is.Equal(out.String(), `é\u202e\x1b[2Kok`+"\n")
}
