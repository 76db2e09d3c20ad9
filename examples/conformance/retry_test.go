package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb"
)

// TestBalancerNeverRunsACallTwice puts HAProxy, configured as
// scripts/haproxy.cfg ships it, in front of two replicas and cuts the
// connection of the replica running a tools/call while its handler runs,
// as a replica's death does: HAProxy meets an empty response. It must
// not send the call to the other replica (a destructive call would run
// twice); the client gets the failure. A request that never reached a
// replica is still retried: the other replica answers it.
func TestBalancerNeverRunsACallTwice(t *testing.T) {
	if testing.Short() {
		t.Skip("starts HAProxy")
	}
	is := is.New(t)
	haproxyBin := needBinary(t, "haproxy")
	var runs atomic.Int32
	started := make(chan *httptest.Server, 2)
	var servers [2]*httptest.Server
	for i := range servers {
		app := vurb.New(vurb.WithLogger(slog.New(slog.DiscardHandler)))
		vurb.Mutation(app, "ledger.charge", func(ctx context.Context, _ struct{}) (string, error) {
			runs.Add(1)
			started <- servers[i]
			select { // the replica dies under it
			case <-ctx.Done():
			case <-time.After(10 * time.Second):
			}
			return "charged", nil
		})
		mux := http.NewServeMux()
		mux.Handle("/mcp", app.HTTPHandler())
		mux.HandleFunc("/", func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "ok\n") }) // health checks
		servers[i] = httptest.NewServer(mux)
		t.Cleanup(servers[i].Close)
	}
	var lines strings.Builder
	for i, s := range servers {
		fmt.Fprintf(&lines, "\tserver r%d %s check inter 1s fall 2 rise 1\n", i, strings.TrimPrefix(s.URL, "http://"))
	}
	lb := startHAProxy(t, t.TempDir(), haproxyBin, lines.String())

	status := make(chan int, 1)
	go func() {
		body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ledger_charge","arguments":{},` +
			`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
		req, _ := http.NewRequest(http.MethodPost, "http://"+lb+"/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
		req.Header.Set("Mcp-Method", "tools/call")
		req.Header.Set("Mcp-Name", "ledger_charge")
		res, err := (&http.Client{Timeout: 20 * time.Second}).Do(req)
		if err != nil {
			status <- 0
			return
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		status <- res.StatusCode
	}()
	select {
	case victim := <-started:
		victim.CloseClientConnections() // the replica dies mid-call
	case <-time.After(10 * time.Second):
		t.Fatal("the call never started")
	}
	select {
	case code := <-status:
		is.True(code >= 500) // the client is told; nothing answered it
	case <-time.After(15 * time.Second):
		t.Fatal("no answer")
	}
	select {
	case <-started:
		t.Fatal("HAProxy sent the cut call to the other replica: it ran twice")
	case <-time.After(500 * time.Millisecond):
	}
	is.Equal(runs.Load(), int32(1))
}
