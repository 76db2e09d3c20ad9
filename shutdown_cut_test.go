package vurb_test

import (
	"context"
	"log/slog"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
)

// TestCallsCutAtTheEndOfTheGraceAreLogged: a call still running when the
// shutdown grace ends once left no trace (the client got a bare EOF).
func TestCallsCutAtTheEndOfTheGraceAreLogged(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	var log syncBuffer
	started := make(chan string, 1)
	release := make(chan struct{})
	defer close(release)
	app := vurb.New(vurb.WithLogger(slog.New(slog.NewTextHandler(&log, nil))))
	vurb.Query(app.Tool("ops"), "stuck", func(ctx context.Context, _ struct{}) (string, error) {
		started <- vurb.CallFrom(ctx).RequestID()
		<-release // ignores its context
		return "never", nil
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	is.NoErr(err)
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- app.ServeListener(ctx, ln, vurb.ShutdownGrace(200*time.Millisecond)) }()

	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).
		Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: "http://" + ln.Addr().String() + "/mcp"}, nil)
	is.NoErr(err)
	defer cs.Close()
	go func() {
		_, _ = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "ops_stuck", Arguments: map[string]any{}})
	}()
	id := <-started
	cancel()
	is.NoErr(<-served)

	want := "call cut at the end of the shutdown grace period"
	deadline := time.Now().Add(3 * time.Second)
	for !strings.Contains(log.String(), want) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	got := log.String()
	is.True(strings.Contains(got, want))
	is.True(strings.Contains(got, "request_id="+id))
}
