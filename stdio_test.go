package vurb_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb"
)

// stdioServer serves app over a pair of pipes and returns the client's
// ends: what it writes to the server and what it reads from it.
func stdioServer(t *testing.T, app *vurb.App, opts ...vurb.StdioOption) (toServer io.WriteCloser, fromServer *bufio.Reader) {
	t.Helper()
	return stdioServerWith(t, app, opts, nil)
}

// stdioServerWith is stdioServer with the options Serve is given.
func stdioServerWith(t *testing.T, app *vurb.App, opts []vurb.StdioOption, serveOpts []vurb.ServeOption) (toServer io.WriteCloser, fromServer *bufio.Reader) {
	t.Helper()
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = app.Serve(ctx, vurb.StdioOn(inR, outW, opts...), serveOpts...)
	}()
	t.Cleanup(func() {
		cancel()
		inW.Close()
		outR.Close()
		<-done
		inR.Close()
	})
	return inW, bufio.NewReaderSize(outR, 1<<20)
}

type rpcAnswer struct {
	ID    any `json:"id"`
	Error *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	Result json.RawMessage `json:"result"`
}

func readAnswer(t *testing.T, r *bufio.Reader) rpcAnswer {
	t.Helper()
	line, err := r.ReadBytes('\n')
	if err != nil {
		t.Fatalf("reading an answer: %v", err)
	}
	var a rpcAnswer
	if err := json.Unmarshal(line, &a); err != nil {
		t.Fatalf("answer %q: %v", line, err)
	}
	return a
}

const stdioInit = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}` + "\n" +
	`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"

func TestStdioAnswersBadLinesAndReadsOn(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	app := vurb.New(vurb.WithLogger(slog.New(slog.DiscardHandler)))
	vurb.Query(app.Tool("ops"), "ok", func(context.Context, struct{}) (string, error) { return "fine", nil })
	w, r := stdioServer(t, app, vurb.WithMaxLineBytes(64<<10))
	_, err := io.WriteString(w, stdioInit)
	is.NoErr(err)
	is.Equal(readAnswer(t, r).ID, float64(0))

	for _, tc := range []struct {
		line string
		code int
		id   any
	}{
		{"hello", -32700, nil},
		{"{broken", -32700, nil},
		{"\x00\xff\xfe binary \x01", -32700, nil},
		{"[]", -32600, nil},
		{`[{"jsonrpc":"2.0","id":5,"method":"ping"}]`, -32600, nil},
		{`{"jsonrpc":"1.0","id":7,"method":"ping"}`, -32600, float64(7)},
		{`"jsonrpc":"1.0"`, -32700, nil},
		{`42`, -32600, nil},
		{`{"id":8}`, -32600, float64(8)},
		{`{"jsonrpc":"2.0","id":9,"method":"ping","x":"` + strings.Repeat("a", 100<<10) + `"}`, -32600, nil}, // oversized
	} {
		_, err := io.WriteString(w, tc.line+"\n")
		is.NoErr(err)
		a := readAnswer(t, r)
		if a.Error == nil || a.Error.Code != tc.code || a.ID != tc.id {
			t.Errorf("%.40q: got %+v, want code %d id %v", tc.line, a, tc.code, tc.id)
		}
		// The server reads on: the next request is answered.
		_, err = io.WriteString(w, `{"jsonrpc":"2.0","id":"after","method":"tools/call","params":{"name":"ops_ok","arguments":{}}}`+"\n")
		is.NoErr(err)
		a = readAnswer(t, r)
		is.Equal(a.ID, "after")
		is.True(a.Error == nil)
		is.True(strings.Contains(string(a.Result), "fine"))
	}
}

// TestStdioFloodIsHeldBack writes 50,000 requests without reading the
// answers: the server stops reading at WithMaxInFlight, so its goroutines and
// memory stay flat, and every request is answered once the client reads.
func TestStdioFloodIsHeldBack(t *testing.T) {
	// Not parallel: it counts the process's goroutines.
	is := is.New(t)
	app := vurb.New(vurb.WithLogger(slog.New(slog.DiscardHandler)))
	vurb.Query(app.Tool("ops"), "ok", func(context.Context, struct{}) (string, error) { return "fine", nil })
	before := runtime.NumGoroutine()
	w, r := stdioServer(t, app, vurb.WithMaxInFlight(32))
	_, err := io.WriteString(w, stdioInit)
	is.NoErr(err)
	readAnswer(t, r)

	const n = 50_000
	var written atomic.Int64
	go func() {
		bw := bufio.NewWriter(w)
		for i := range n {
			fmt.Fprintf(bw, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"ops_ok","arguments":{}}}`+"\n", i+1)
			written.Add(1)
		}
		bw.Flush()
	}()
	time.Sleep(500 * time.Millisecond)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	goroutines := runtime.NumGoroutine() - before
	t.Logf("unread flood: %d of %d requests written, %d goroutines more, heap %d MB", written.Load(), n, goroutines, ms.HeapAlloc>>20)
	is.True(written.Load() < n) // held back by its own pipe
	if goroutines > 32+64 {
		t.Errorf("%d goroutines more while flooded; want about WithMaxInFlight (32)", goroutines)
	}

	// Reading now, the answers come and the writer moves on.
	const read = 5_000
	for i := range read {
		if a := readAnswer(t, r); a.Error != nil {
			t.Fatalf("answer %d: %+v", i, a.Error)
		}
	}
	is.True(written.Load() > read)
}
