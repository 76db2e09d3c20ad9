package edge

import (
	"errors"
	"io"
	"net/http"
	"time"
)

// net/http offers one ReadTimeout and one WriteTimeout per connection,
// which do not fit MCP: a ReadTimeout cancels a standing event stream
// when it runs out, a WriteTimeout cuts every stream longer than itself.
// withDeadlines sets them per request instead, through the
// http.ResponseController: the read deadline covers the body only and is
// lifted at its end; the write deadline is set afresh before each write
// and flush, so a stream lives as long as its client reads it, and a
// client that stops reading is cut one WithWriteTimeout after its buffers
// fill.

// withDeadlines applies t's body and write deadlines to next's requests.
func withDeadlines(next http.Handler, t httpTimeouts) http.Handler {
	if t.body <= 0 && t.write <= 0 {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc := http.NewResponseController(w)
		if t.body > 0 && r.Body != nil && r.Body != http.NoBody {
			_ = rc.SetReadDeadline(time.Now().Add(t.body))
			r.Body = &deadlineBody{ReadCloser: r.Body, rc: rc}
		}
		if t.write <= 0 {
			next.ServeHTTP(w, r)
			return
		}
		dw := &deadlineWriter{ResponseWriter: w, rc: rc, d: t.write}
		next.ServeHTTP(dw, r)
		dw.extend() // for what net/http writes after the handler: the last chunk
	})
}

// deadlineBody lifts the read deadline once the body is read whole, so
// that net/http's background read, which watches for the client going
// away during a long answer, does not time out. A body cut short keeps
// its deadline: the connection ends with it.
type deadlineBody struct {
	io.ReadCloser
	rc     *http.ResponseController
	lifted bool
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if errors.Is(err, io.EOF) && !b.lifted {
		b.lifted = true
		_ = b.rc.SetReadDeadline(time.Time{})
	}
	return n, err
}

// deadlineWriter gives every write and flush d to complete.
type deadlineWriter struct {
	http.ResponseWriter
	rc *http.ResponseController
	d  time.Duration
}

func (w *deadlineWriter) extend() { _ = w.rc.SetWriteDeadline(time.Now().Add(w.d)) }

func (w *deadlineWriter) Write(p []byte) (int, error) {
	w.extend()
	return w.ResponseWriter.Write(p)
}

// Flush flushes the answer so far, as the go-sdk does after each event.
func (w *deadlineWriter) Flush() {
	w.extend()
	_ = w.rc.Flush()
}

// FlushError is Flush with its error, for http.ResponseController.
func (w *deadlineWriter) FlushError() error {
	w.extend()
	return w.rc.Flush()
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (w *deadlineWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
