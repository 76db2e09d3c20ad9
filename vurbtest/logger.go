package vurbtest

import (
	"io"
	"log/slog"
	"sync"
	"testing"
)

// Logger returns a logger that writes to t's output, for an app under
// test: vurb.New(vurb.WithLogger(vurbtest.Logger(t))). What the app logs
// (a handler's vurb.Logger(ctx) lines, recovered panics with their stack,
// serving errors) then shows with the test that caused it, when it fails
// or under go test -v, instead of in the middle of another test's output.
//
// Each record is one line of slog's text format, at every level from
// Debug, without the time (the test's output is already in order):
//
//	level=INFO msg=searching request_id=1 tool=docs action=search query=go
//
// It writes through t.Output, the stream of t.Log, without t.Log's file
// and line, which would name slog's code rather than the caller's. Once
// t and its cleanups are done, it drops what is still logged (by a
// goroutine that outlived the test): testing would put the line in a
// parent test's output, or panic when every parent is done too. Make it
// in the test whose output it belongs to, before vurbtest.New, so that
// what the app logs while New's cleanups stop it still reaches t.
func Logger(t testing.TB) *slog.Logger {
	w := &testWriter{w: t.Output()}
	t.Cleanup(w.stop) // registered first, so it runs after the cleanups of what logs to it
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{
		Level: slog.LevelDebug,
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if len(groups) == 0 && a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		},
	}))
}

// testWriter writes to a test's output until the test is done.
type testWriter struct {
	mu   sync.Mutex
	w    io.Writer
	done bool
}

// Write writes p, one record, unless the test is done.
func (w *testWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.done {
		return len(p), nil
	}
	return w.w.Write(p)
}

// stop drops what is written from now on.
func (w *testWriter) stop() {
	w.mu.Lock()
	w.done = true
	w.mu.Unlock()
}
