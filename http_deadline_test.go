package vurb_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
)

// TestSlowClientsAreCutAtTheirDeadlines: an idle keep-alive connection, a
// body trickled byte by byte and a client that never reads a 20 MB answer
// once held their connections for good; now each is cut at its deadline,
// while a normal client keeps its latency and an event stream outlives
// the write timeout.
func TestSlowClientsAreCutAtTheirDeadlines(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	const limit = 300 * time.Millisecond
	app := vurb.New(vurb.WithLogger(slog.New(slog.DiscardHandler)))
	vurb.Query(app.Tool("ops"), "ok", func(context.Context, struct{}) (string, error) { return "fine", nil })
	big := strings.Repeat("x", 20<<20)
	vurb.Query(app.Tool("ops"), "big", func(context.Context, struct{}) (string, error) { return big, nil })
	vurb.Resource(app, "res://news", "news", func(context.Context) (vurb.Contents, error) { return vurb.Contents{Text: "n"}, nil })
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	is.NoErr(err)
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() {
		served <- app.ServeListener(ctx, ln, vurb.WithIdleTimeout(limit), vurb.WithBodyReadTimeout(limit),
			vurb.WithWriteTimeout(limit), vurb.WithShutdownGrace(time.Second))
	}()
	defer func() { cancel(); is.NoErr(<-served) }()
	addr := ln.Addr().String()
	url := "http://" + addr + "/mcp"

	// closedWithin reads conn until it ends and returns how long that took
	// and how much it read.
	closedWithin := func(conn net.Conn, max time.Duration) (time.Duration, int64) {
		start := time.Now()
		_ = conn.SetReadDeadline(start.Add(max))
		n, _ := io.Copy(io.Discard, conn)
		return time.Since(start), n
	}

	// A normal client's latency, measured while the others misbehave.
	normal := 500 * time.Millisecond
	if raceEnabled {
		normal = 2 * time.Second
	}
	latency := func() time.Duration {
		start := time.Now()
		body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ops_ok","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
		req.Header.Set("Mcp-Method", "tools/call")
		req.Header.Set("Mcp-Name", "ops_ok")
		resp, err := http.DefaultClient.Do(req)
		is.NoErr(err)
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if !strings.Contains(string(data), "fine") {
			t.Errorf("normal client: %d %s", resp.StatusCode, data)
		}
		return time.Since(start)
	}

	t.Run("idle", func(t *testing.T) {
		conn, err := net.Dial("tcp", addr)
		is.NoErr(err)
		defer conn.Close()
		fmt.Fprintf(conn, "GET /mcp HTTP/1.1\r\nHost: %s\r\n\r\n", addr)
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		is.NoErr(err)
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		took, _ := closedWithin(conn, 5*time.Second)
		t.Logf("idle connection closed after %s", took.Round(time.Millisecond))
		is.True(took < limit+time.Second)
	})

	t.Run("trickle", func(t *testing.T) {
		conn, err := net.Dial("tcp", addr)
		is.NoErr(err)
		defer conn.Close()
		fmt.Fprintf(conn, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n", addr)
		stop := make(chan struct{})
		defer close(stop)
		go func() {
			for {
				select {
				case <-stop:
					return
				case <-time.After(50 * time.Millisecond):
					if _, err := conn.Write([]byte(" ")); err != nil {
						return
					}
				}
			}
		}()
		is.True(latency() < normal)
		took, _ := closedWithin(conn, 10*time.Second)
		t.Logf("trickling body cut after %s (it would have taken 50 s)", took.Round(time.Millisecond))
		is.True(took < limit+2*time.Second)
	})

	t.Run("not reading", func(t *testing.T) {
		conn, err := net.Dial("tcp", addr)
		is.NoErr(err)
		defer conn.Close()
		body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ops_big","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
		fmt.Fprintf(conn, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMcp-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: ops_big\r\nContent-Length: %d\r\n\r\n%s", addr, len(body), body)
		// The first byte says the answer is being written (encoding 20 MB
		// takes a second or more); then the client stops reading, until
		// long past the write timeout.
		_ = conn.SetReadDeadline(time.Now().Add(15 * time.Second))
		_, err = conn.Read(make([]byte, 1))
		is.NoErr(err)
		time.Sleep(limit + 1500*time.Millisecond)
		is.True(latency() < normal)
		took, n := closedWithin(conn, 10*time.Second)
		t.Logf("non-reading client: %d of 20 MB reached it, then the connection ended (%s to drain)", n>>20, took.Round(time.Millisecond))
		is.True(n < 20<<20)           // cut before the whole answer
		is.True(took < 5*time.Second) // and closed: what the buffers held, then the end
	})

	t.Run("event stream outlives the write timeout", func(t *testing.T) {
		updates := make(chan string, 1)
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, &mcp.ClientOptions{
			ResourceUpdatedHandler: func(_ context.Context, r *mcp.ResourceUpdatedNotificationRequest) { updates <- r.Params.URI },
		}).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, nil)
		is.NoErr(err)
		defer cs.Close()
		is.NoErr(cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "res://news"}))
		time.Sleep(3 * limit)
		is.NoErr(app.NotifyResourceUpdated(ctx, "res://news"))
		select {
		case <-updates:
		case <-time.After(5 * time.Second):
			t.Fatal("the event stream did not outlive the write timeout")
		}
	})
}
