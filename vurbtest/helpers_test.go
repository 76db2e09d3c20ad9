package vurbtest_test

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeT stands in for a test so that a helper's failure can be read
// instead of failing the real test. Name comes from the real test.
type fakeT struct {
	testing.TB
	mu       sync.Mutex
	fatal    string
	errors   []string
	cleanups []func()
}

func (f *fakeT) Helper() {}

func (f *fakeT) Logf(string, ...any) {}

func (f *fakeT) Errorf(format string, args ...any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.errors = append(f.errors, fmt.Sprintf(format, args...))
}

func (f *fakeT) Fatalf(format string, args ...any) {
	f.mu.Lock()
	f.fatal = fmt.Sprintf(format, args...)
	f.mu.Unlock()
	runtime.Goexit()
}

func (f *fakeT) Cleanup(fn func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.cleanups = append(f.cleanups, fn)
}

// failure runs body as a test of its own, on its own goroutine, runs its
// cleanups, and returns the message it stopped on ("" when it ran to the
// end) and the errors it reported.
func failure(t *testing.T, body func(t testing.TB)) (fatal string, errors []string) {
	t.Helper()
	f := &fakeT{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		body(f)
	}()
	<-done
	for _, fn := range slices.Backward(f.cleanups) {
		fn()
	}
	return f.fatal, f.errors
}

// mustFail is failure for a body that must stop on a message containing
// every one of want.
func mustFail(t *testing.T, body func(t testing.TB), want ...string) string {
	t.Helper()
	msg, _ := failure(t, body)
	if msg == "" {
		t.Fatal("the helper did not fail the test")
	}
	for _, w := range want {
		if !strings.Contains(msg, w) {
			t.Errorf("failure message\n got: %s\nwant: …%s…", msg, w)
		}
	}
	return msg
}

// noLeaks fails t when goroutines that started during it still run once
// its cleanups (vurbtest's among them) are done. Tests that use it do not
// run in parallel.
func noLeaks(t *testing.T) {
	t.Helper()
	before := goroutines()
	t.Cleanup(func() { // registered first, so it runs last
		deadline := time.Now().Add(5 * time.Second)
		for {
			var leaked []string
			for id, stack := range goroutines() {
				if _, old := before[id]; !old {
					leaked = append(leaked, stack)
				}
			}
			if len(leaked) == 0 {
				return
			}
			if time.Now().After(deadline) {
				t.Errorf("%d goroutines leaked:\n\n%s", len(leaked), strings.Join(leaked, "\n\n"))
				return
			}
			// vurb keeps idle handler goroutines until a garbage collection
			// drops their handles (internal/engine/workers.go): collect.
			runtime.GC()
			time.Sleep(time.Millisecond)
		}
	})
}

// goroutines maps the id of every goroutine to its stack.
func goroutines() map[string]string {
	buf := make([]byte, 1<<16)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	out := map[string]string{}
	for _, g := range strings.Split(string(buf), "\n\n") {
		header, _, _ := strings.Cut(g, " [")
		out[header] = g
	}
	return out
}
