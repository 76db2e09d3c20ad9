package vurb_test

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestShutdownOfAProcess signals a real server process (testdata/
// shutdownserver: ListenAndServe under signal.NotifyContext, a 2 s grace)
// while 200 tasks of 1 s, 5 tasks of a minute and a call of each protocol
// revision that only the shutdown ends are running. SIGTERM once returned
// at once and dropped every task without a word. Now the 200 finish in
// the grace; the 5 are cut, each logged once with its id; each call is
// cut, answered and logged once with its request id (a 2025-11-25
// session's answer was lost when the sessions closed as the grace ended);
// and the process exits soon after the grace.
func TestShutdownOfAProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and signals a server process")
	}
	is := is.New(t)
	bin := filepath.Join(t.TempDir(), "shutdownserver")
	if out, err := exec.Command("go", "build", "-o", bin, "./testdata/shutdownserver").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	is.NoErr(err)
	addr := ln.Addr().String()
	ln.Close()
	cmd := exec.Command(bin, "-addr", addr, "-grace", "2s")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &syncWriter{w: &stderr}
	is.NoErr(cmd.Start())
	defer cmd.Process.Kill()
	url := "http://" + addr + "/mcp"
	for deadline := time.Now().Add(10 * time.Second); ; {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the server never listened")
		}
		time.Sleep(20 * time.Millisecond)
	}

	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}`
	var wg sync.WaitGroup
	var mu sync.Mutex
	var longIDs []string
	for i := range 205 {
		wg.Go(func() {
			millis := 1000
			if i >= 200 {
				millis = 60_000
			}
			out, _, err := postJSONRPC(url, "", "2026-07-28", "tools/call", "jobs_run",
				fmt.Sprintf(`{"name":"jobs_run","arguments":{"millis":%d},%s}`, millis, meta))
			if err != nil || out.Error != nil {
				t.Errorf("starting a task: %v %v", err, out.Error)
				return
			}
			if millis > 1000 {
				mu.Lock()
				longIDs = append(longIDs, taskID(out.Result))
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	answers := make(chan string, 2)
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		go func() {
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).
				Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url}, &mcp.ClientSessionOptions{ProtocolVersion: version})
			if err != nil {
				answers <- version + ": " + err.Error()
				return
			}
			defer cs.Close()
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "ops_slow", Arguments: map[string]any{}})
			switch {
			case err != nil:
				answers <- version + ": " + err.Error()
			default:
				answers <- version + ": " + res.Content[0].(*mcp.TextContent).Text
			}
		}()
	}
	time.Sleep(300 * time.Millisecond) // every call has started
	start := time.Now()
	is.NoErr(cmd.Process.Signal(syscall.SIGTERM))
	is.NoErr(cmd.Wait())
	took := time.Since(start)
	t.Logf("the process exited %s after SIGTERM", took.Round(time.Millisecond))
	is.True(took < 5*time.Second) // the 2 s grace, then the cut: not the minute-long tasks

	is.True(strings.Contains(stdout.String(), "finished=200")) // every task that could finish in the grace did
	log := stderr.String()
	for _, id := range longIDs {
		is.Equal(strings.Count(log, "task="+id), 1) // each cut task logged once, with its id
	}
	is.Equal(strings.Count(log, "task cut at the end of the shutdown grace period"), 5)
	is.Equal(strings.Count(log, "call cut at the end of the shutdown grace period"), 2) // each call once
	for range 2 {
		select {
		case a := <-answers:
			t.Log(a)
			is.True(strings.Contains(a, "the server is shutting down and cut this call")) // answered, on either revision
		case <-time.After(5 * time.Second):
			t.Fatal("a cut call got no answer")
		}
	}
}

// taskID reads the id of the task a tools/call created.
func taskID(result []byte) string {
	_, after, _ := strings.Cut(string(result), `"taskId":"`)
	id, _, _ := strings.Cut(after, `"`)
	return id
}

// syncWriter serialises the writes of a child's output.
type syncWriter struct {
	mu sync.Mutex
	w  *bytes.Buffer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}
