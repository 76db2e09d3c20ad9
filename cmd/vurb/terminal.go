package main

import (
	"io"
	"sync"
	"unicode/utf8"

	"github.com/vurb-go/vurb/manifest"
)

// What vurb writes for a person holds a server's text: names,
// descriptions, results, log lines, error messages. Each such piece goes
// through manifest.Visible (one line) or manifest.VisibleLines (a block
// of lines), so an escape sequence in it is shown, never run by the
// terminal: a server once retitled the terminal, wrote to the clipboard
// and blanked the line that said its tool was read-only. The -json,
// manifest and lock outputs are JSON, which escapes control characters
// itself, and are meant for programs: they are written as they are.

// visibleWriter passes a stream (a server's standard error, with -v)
// through manifest.VisibleLines. A character split between two writes is
// held until the next, so that it is shown as the character it is.
type visibleWriter struct {
	mu    sync.Mutex
	w     io.Writer
	carry []byte
}

// Write writes p's text made visible and reports p written.
func (v *visibleWriter) Write(p []byte) (int, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	buf := append(v.carry, p...)
	cut := len(buf)
	// At most the last three bytes can start an unfinished character.
	for i := len(buf) - 1; i >= 0 && i >= len(buf)-3; i-- {
		if utf8.RuneStart(buf[i]) {
			if !utf8.FullRune(buf[i:]) {
				cut = i
			}
			break
		}
	}
	v.carry = append([]byte(nil), buf[cut:]...)
	if _, err := io.WriteString(v.w, manifest.VisibleLines(string(buf[:cut]))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// gate is a writer that can be shut: once a command has been given up
// on (-timeout), what its goroutine still writes is dropped instead of
// interleaving with the report of the timeout.
type gate struct {
	mu   sync.Mutex
	w    io.Writer
	shut bool
}

// Write writes p unless the gate is shut.
func (g *gate) Write(p []byte) (int, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.shut {
		return len(p), nil
	}
	return g.w.Write(p)
}

// close shuts the gate.
func (g *gate) close() {
	g.mu.Lock()
	g.shut = true
	g.mu.Unlock()
}
