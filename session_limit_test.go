package vurb_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb"
)

const initializeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`

// openSession sends an initialize and leaves the session it opens.
func openSession(client *http.Client, url string) (status int, err error) {
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(initializeBody))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, nil
}

// TestAbandonedSessionsAreReclaimed opens 5,000 sessions and leaves them:
// before the idle timeout they cost 5,000 goroutines and ~38 MB for as
// long as the process lived.
func TestAbandonedSessionsAreReclaimed(t *testing.T) {
	// Not parallel: it counts the process's goroutines.
	is := is.New(t)
	sessions, idle := 5_000, time.Second
	if raceEnabled {
		sessions = 1_000 // the race detector makes a handshake ten times slower
	}
	app := vurb.New(vurb.WithLogger(slog.New(slog.DiscardHandler)))
	vurb.Query(app.Tool("ops"), "ok", func(context.Context, struct{}) (string, error) { return "fine", nil })
	srv := httptest.NewServer(app.HTTPHandler(vurb.WithSessionIdleTimeout(idle), vurb.WithMaxSessionsPerCaller(sessions)))
	defer srv.Close()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 128}}
	defer client.CloseIdleConnections()
	before := runtime.NumGoroutine()

	var next atomic.Int32
	var wg sync.WaitGroup
	start := time.Now()
	for range 128 {
		wg.Go(func() {
			for int(next.Add(1)) <= sessions {
				if status, err := openSession(client, srv.URL); err != nil || status != http.StatusOK {
					t.Errorf("initialize: %d %v", status, err)
					return
				}
			}
		})
	}
	wg.Wait()
	opened := time.Since(start)
	client.CloseIdleConnections() // the connections are not the sessions
	peak := runtime.NumGoroutine() - before
	t.Logf("%d sessions opened in %s, %d goroutines more", sessions, opened.Round(time.Millisecond), peak)
	// Sessions opened within the idle time are still open: each holds
	// goroutines until it is reclaimed.
	is.True(peak > 50)

	deadline := time.Now().Add(idle + 2*time.Second)
	for runtime.NumGoroutine()-before > 100 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	left := runtime.NumGoroutine() - before
	t.Logf("%s after the last one opened: %d goroutines more", time.Since(start.Add(opened)).Round(time.Millisecond), left)
	if left > 100 {
		t.Fatalf("%d goroutines more %s after the sessions were left; want them reclaimed", left, idle+2*time.Second)
	}
}

// TestSessionsAreCappedIdleOnesGiveWay: at WithMaxSessions, the session idle
// the longest is closed to make room; a caller past its share is refused
// alone.
func TestSessionsAreCappedIdleOnesGiveWay(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	app := vurb.New(vurb.WithLogger(slog.New(slog.DiscardHandler)))
	vurb.Query(app.Tool("ops"), "ok", func(context.Context, struct{}) (string, error) { return "fine", nil })
	srv := httptest.NewServer(app.HTTPHandler(vurb.WithMaxSessions(3), vurb.WithMaxSessionsPerCaller(10)))
	defer srv.Close()
	var ids []string
	for range 4 {
		id, status := initializeSession(t, srv.URL)
		is.Equal(status, http.StatusOK)
		ids = append(ids, id)
	}
	is.Equal(sessionStatus(t, srv.URL, ids[0]), http.StatusNotFound) // the oldest idle one made room
	is.Equal(sessionStatus(t, srv.URL, ids[3]), http.StatusAccepted) // the new one serves

	// A caller whose sessions are all busy (a standing stream each) is
	// refused past its share, and nobody else is.
	shared := httptest.NewServer(app.HTTPHandler(vurb.WithMaxSessions(100), vurb.WithMaxSessionsPerCaller(2)))
	defer shared.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for range 2 {
		id, status := initializeSession(t, shared.URL)
		is.Equal(status, http.StatusOK)
		get, _ := http.NewRequestWithContext(ctx, http.MethodGet, shared.URL, nil)
		get.Header.Set("Accept", "text/event-stream")
		get.Header.Set("Mcp-Session-Id", id)
		get.Header.Set("Mcp-Protocol-Version", "2025-06-18")
		stream, err := http.DefaultClient.Do(get)
		is.NoErr(err)
		is.Equal(stream.StatusCode, http.StatusOK)
		defer stream.Body.Close()
	}
	req, _ := http.NewRequest(http.MethodPost, shared.URL, strings.NewReader(initializeBody))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := shared.Client().Do(req)
	is.NoErr(err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	is.Equal(resp.StatusCode, http.StatusTooManyRequests)
	is.Equal(resp.Header.Get("Retry-After"), "30")
	is.True(strings.Contains(string(body), "you have 2 sessions open and busy, your share"))
}

// initializeSession opens a session and returns its id.
func initializeSession(t *testing.T, url string) (string, int) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(initializeBody))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.Header.Get("Mcp-Session-Id"), resp.StatusCode
}

// sessionStatus is the status of a notification sent on the session id.
func sessionStatus(t *testing.T, url, id string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Session-Id", id)
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}
