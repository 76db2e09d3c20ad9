package vurb_test

import (
	"context"
	"log/slog"
	"runtime"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb"
)

// Handlers run on pooled worker goroutines. These tests hold the pool to
// what a caller must never notice: a worker whose goroutine ended is never
// handed another call, and handing a call over does not queue its caller
// behind other busy goroutines.

func TestWorkerEndedByGoexitIsNotReused(t *testing.T) {
	exits := map[string]func(){
		"goexit": runtime.Goexit,
		// A deferred call that panics while Goexit unwinds: the panic is
		// recovered, and Goexit then goes on to end the goroutine.
		"goexit with a recovered panic": func() {
			defer func() { panic("while exiting") }()
			runtime.Goexit()
		},
	}
	for name, exit := range exits {
		t.Run(name, func(t *testing.T) {
			is := is.New(t)
			f := vurb.New(vurb.WithLogger(slog.New(slog.DiscardHandler)))
			vurb.Query(f, "jobs.exit", func(context.Context, noInput) (string, error) {
				exit()
				return "unreachable", nil
			})
			vurb.Query(f, "jobs.ok", func(context.Context, noInput) (string, error) { return "ok", nil }).
				Timeout(2 * time.Second)
			for range 20 {
				is.True(call(t, f, "jobs_exit", `{}`).IsError)
				// Were the dead worker handed this call, it would wait for
				// its deadline and time out.
				start := time.Now()
				res := call(t, f, "jobs_ok", `{}`)
				is.Equal(text(res), "ok")
				is.True(time.Since(start) < time.Second)
			}
		})
	}
}

// TestCallsAreNotQueuedBehindBusyGoroutines runs calls on one thread
// beside goroutines that never block. A caller that yielded to its worker
// through the scheduler's run queue would wait a time slice (10 ms) behind
// each of them; a caller woken by its worker's answer does not wait.
func TestCallsAreNotQueuedBehindBusyGoroutines(t *testing.T) {
	if testing.Short() {
		t.Skip("changes GOMAXPROCS for a while")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	var stop atomic.Bool
	defer stop.Store(true)
	for range 4 {
		go func() {
			for n := 0; !stop.Load(); n++ { // busy, preemptible only asynchronously
			}
		}()
	}
	f := vurb.New()
	vurb.Query(f, "jobs.ok", func(context.Context, noInput) (string, error) { return "ok", nil })
	var took []time.Duration
	for range 21 {
		start := time.Now()
		if text(call(t, f, "jobs_ok", `{}`)) != "ok" {
			t.Fatal("wrong answer")
		}
		took = append(took, time.Since(start))
	}
	slices.Sort(took)
	if median := took[len(took)/2]; median > 5*time.Millisecond {
		t.Errorf("median call took %v beside 4 busy goroutines on one thread, want well under a time slice (10 ms)", median)
	}
}
