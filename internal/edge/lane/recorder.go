package lane

import (
	"bytes"
	"net/http"
)

// recorder is the ResponseWriter of a request the lane has the go-sdk
// answer for it, off the wire (listCache): the status and the body, kept.
// It stands in for net/http/httptest's recorder, which is test tooling.
type recorder struct {
	header http.Header
	code   int
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header {
	if r.header == nil {
		r.header = http.Header{}
	}
	return r.header
}

// WriteHeader keeps the first status written.
func (r *recorder) WriteHeader(code int) {
	if r.code == 0 {
		r.code = code
	}
}

func (r *recorder) Write(p []byte) (int, error) {
	r.WriteHeader(http.StatusOK)
	return r.body.Write(p)
}

// Flush does nothing: everything is kept until the answer is read.
func (r *recorder) Flush() {}

// status is the status written, 200 when none was.
func (r *recorder) status() int {
	if r.code == 0 {
		return http.StatusOK
	}
	return r.code
}
