package main

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/vurb-go/vurb/manifest"
)

// progress writes what a long operation is doing to stderr, one line per
// step with the time since the start, so a slow server start or a long
// listing is never silent. Disabled, it writes nothing.
type progress struct {
	mu    sync.Mutex
	w     io.Writer
	on    bool
	start time.Time
}

func newProgress(w io.Writer, on bool) *progress {
	return &progress{w: w, on: on, start: time.Now()}
}

// step reports one step, on one line. Steps carry a server's text (its
// name, a progress or log message, an error it answered), so the line is
// made manifest.Visible: a server cannot run escape sequences in the
// terminal through it.
func (p *progress) step(format string, args ...any) {
	if p == nil || !p.on {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.w, "vurb: [%5.1fs] %s\n", time.Since(p.start).Seconds(), manifest.Visible(fmt.Sprintf(format, args...)))
}
