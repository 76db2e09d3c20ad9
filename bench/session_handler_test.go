package bench

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/vurb-go/vurb"
)

// BenchmarkSessionHandler is one tools/call of a live handshake-era
// session through app.HTTPHandler, without a network: what vurb's own
// code costs a served session call (the session lane), apart from
// net/http's reading and writing. The session is opened before the timer;
// each iteration builds its request (the same few allocations in every
// run) and serves it into a reused recorder.
func BenchmarkSessionHandler(b *testing.B) {
	app := vurb.New(vurb.WithName("bench"), vurb.WithVersion("1.0.0"), vurb.WithLogger(discard))
	vurb.Query(app, "docs.search", search).Describe("Search the documents")
	h := app.HTTPHandler()

	post := func(body string, session string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/mcp", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Accept", "application/json, text/event-stream")
		if session != "" {
			r.Header.Set("Mcp-Session-Id", session)
			r.Header.Set("Mcp-Protocol-Version", "2025-11-25")
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	init := post(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`, "")
	id := init.Header().Get("Mcp-Session-Id")
	if init.Code != http.StatusOK || id == "" {
		b.Fatalf("initialize: %d %q", init.Code, init.Body)
	}
	if w := post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, id); w.Code != http.StatusAccepted {
		b.Fatalf("initialized: %d %q", w.Code, w.Body)
	}
	call := []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"docs_search","arguments":{"query":"golang","limit":10}}}`)
	header := http.Header{
		"Content-Type":         {"application/json"},
		"Accept":               {"application/json, text/event-stream"},
		"Mcp-Session-Id":       {id},
		"Mcp-Protocol-Version": {"2025-11-25"},
	}
	if w := post(string(call), id); !bytes.Contains(w.Body.Bytes(), []byte(`"text":"golang"`)) {
		b.Fatalf("tools/call: %d %q", w.Code, w.Body)
	}
	w := &sinkWriter{h: http.Header{}}
	b.ReportAllocs()
	for b.Loop() {
		r := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/mcp", bytes.NewReader(call))
		r.Header = header.Clone()
		clear(w.h)
		h.ServeHTTP(w, r)
	}
}

// sinkWriter is a ResponseWriter that keeps nothing but its header map.
type sinkWriter struct {
	h http.Header
}

func (w *sinkWriter) Header() http.Header         { return w.h }
func (w *sinkWriter) Write(p []byte) (int, error) { return len(p), nil }
func (w *sinkWriter) WriteHeader(int)             {}
func (w *sinkWriter) Flush()                      {}
