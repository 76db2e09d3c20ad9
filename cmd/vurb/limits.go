package main

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
)

// A server is not trusted to be small. Everything vurb reads from one
// counts against a budget of bytes (-max-bytes), and a listing stops after
// -max-pages pages or -max-items items: a hostile server that answered
// tools/list with 64 MB kept vurb inspect busy for 21 s at 1 GB resident
// (and the go-sdk reads an HTTP answer whole before decoding it), and one
// that paged forever grew vurb by 50 MB a second until the timeout.

// Defaults of the bounds. A large real server lists a few hundred tools
// in well under a megabyte.
const (
	defaultMaxBytes = 16 << 20
	defaultMaxPages = 1000
	defaultMaxItems = 10000
)

// budget is how many bytes one server may still send: every answer,
// notification and stream event, over HTTP or stdio.
type budget struct {
	max  int64
	used atomic.Int64
}

// tooMuch is the error of a server that sent more than the budget.
type tooMuch struct{ max int64 }

// Error says what happened and which flag raises the bound.
func (e tooMuch) Error() string {
	return fmt.Sprintf("the server sent more than %s; vurb stopped reading it (-max-bytes raises the bound)", byteSize(e.max))
}

// take counts n bytes read and reports whether they were within the
// budget.
func (b *budget) take(n int) bool { return b.used.Add(int64(n)) <= b.max }

// exceeded reports whether the server sent more than the budget.
func (b *budget) exceeded() bool { return b.used.Load() > b.max }

// explain returns err, or the budget's own error when the server sent
// too much: whatever the go-sdk made of the cut answer ("connection
// closed", "failed to read body"), the cause is the size.
func (b *budget) explain(err error) error {
	if err != nil && b.exceeded() {
		return tooMuch{b.max}
	}
	return err
}

// reader counts what r reads against the budget and fails once it is
// spent, without reading on.
func (b *budget) reader(r io.Reader) io.Reader { return &budgetReader{r, b} }

type budgetReader struct {
	r io.Reader
	b *budget
}

// Read reads at most one byte past the budget, to tell "exactly the
// budget" from "more".
func (r *budgetReader) Read(p []byte) (int, error) {
	left := r.b.max - r.b.used.Load() + 1
	if left <= 0 {
		return 0, tooMuch{r.b.max}
	}
	if int64(len(p)) > left {
		p = p[:left]
	}
	n, err := r.r.Read(p)
	if !r.b.take(n) {
		return 0, tooMuch{r.b.max}
	}
	return n, err
}

// transport bounds the bodies of HTTP answers by the budget; once it is
// spent, it sends nothing more, so that no retry or reconnection reads
// on.
func (b *budget) transport(next http.RoundTripper) http.RoundTripper {
	return budgetTransport{next, b}
}

type budgetTransport struct {
	next http.RoundTripper
	b    *budget
}

// RoundTrip sends r and bounds the answer's body.
func (t budgetTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if t.b.exceeded() {
		return nil, tooMuch{t.b.max}
	}
	resp, err := t.next.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	resp.Body = budgetBody{t.b.reader(resp.Body), resp.Body}
	return resp, nil
}

type budgetBody struct {
	io.Reader
	io.Closer
}

// byteSize is a size in bytes, read and written as 16MiB, 512KiB, 2GiB
// or a plain number (flag.Value).
type byteSize int64

var sizeUnits = []struct {
	suffix string
	n      int64
}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"GB", 1e9}, {"MB", 1e6}, {"KB", 1e3}, {"B", 1}}

// String writes the size in the largest binary unit that divides it.
func (s byteSize) String() string {
	for _, u := range sizeUnits[:3] {
		if s > 0 && int64(s)%u.n == 0 {
			return strconv.FormatInt(int64(s)/u.n, 10) + u.suffix
		}
	}
	return strconv.FormatInt(int64(s), 10) + " bytes"
}

// Set reads a size.
func (s *byteSize) Set(v string) error {
	v = strings.TrimSpace(v)
	mult := int64(1)
	for _, u := range sizeUnits {
		if strings.HasSuffix(v, u.suffix) {
			v, mult = strings.TrimSpace(strings.TrimSuffix(v, u.suffix)), u.n
			break
		}
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n <= 0 || n > (1<<62)/mult {
		return errors.New("want a positive size such as 16MiB, 512KiB or 1048576")
	}
	*s = byteSize(n * mult)
	return nil
}
