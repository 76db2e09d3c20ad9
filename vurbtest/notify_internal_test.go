package vurbtest

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// fatalT records Fatalf and stops the goroutine, as testing does.
type fatalT struct {
	testing.TB
	fatal string
}

func (f *fatalT) Helper() {}

func (f *fatalT) Fatalf(format string, args ...any) {
	f.fatal = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

func TestWaitFailsAfterTheTimeout(t *testing.T) {
	f := &fatalT{TB: t}
	c := &Client{t: f, cfg: config{timeout: 20 * time.Millisecond}}
	c.progress.add(&mcp.ProgressNotificationParams{ProgressToken: 1, Progress: 1, Total: 3, Message: "step 1"})
	done := make(chan []*mcp.ProgressNotificationParams)
	go func() {
		defer close(done)
		done <- c.Progress(2)
	}()
	if got, ok := <-done; ok {
		t.Fatalf("Progress(2) returned %v; want a failure", got)
	}
	want := `vurbtest: waited 20ms for 2 progress notifications, got 1: [{"progressToken":1,"message":"step 1","progress":1,"total":3}]`
	if f.fatal != want {
		t.Fatalf("failure\n got: %s\nwant: %s", f.fatal, want)
	}
}

func TestRecorderWakesWaiters(t *testing.T) {
	var r recorder[int]
	go func() {
		for i := range 3 {
			r.add(i)
		}
	}()
	got, ok := r.wait(3, 5*time.Second)
	if !ok || len(got) != 3 || got[2] != 2 {
		t.Fatalf("wait: %v, %v", got, ok)
	}
	if got, ok := r.wait(0, 0); !ok || len(got) != 3 {
		t.Fatalf("wait(0): %v, %v", got, ok)
	}
}
