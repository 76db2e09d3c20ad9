package vurb_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/observe"
)

// Deadlines and cancellation, served through a real client. TestTimeouts
// and TestCallerCancellation (call_test.go) cover the in-process path and
// TestClientCancellationReachesHandler (serve_test.go) the plain served
// cancellation; these add what a client of a stuck or abandoned call sees,
// what every layer sees, and that nothing is left running.

// timeoutText is the tool error of a call that passed its deadline.
func timeoutText(exp vurb.Exposition, tool, action string, d time.Duration) string {
	return errPrefix(exp, tool, action) + fmt.Sprintf(vurb.DefaultMessages().Timeout, d)
}

// errPrefix is how the errors of an action begin under exp: with what the
// model called, the flat wire name or the tool and its discriminator.
func errPrefix(exp vurb.Exposition, tool, action string) string {
	if exp == vurb.Grouped {
		return "[" + tool + " action=" + action + "] "
	}
	return "[" + tool + "_" + strings.ReplaceAll(action, ".", "_") + "] "
}

// wireCall is name and args for exp: the flat wire name, or the tool and
// its discriminator.
func wireCall(exp vurb.Exposition, tool, action, args string) (string, string) {
	if exp == vurb.Flat {
		return tool + "_" + strings.ReplaceAll(action, ".", "_"), args
	}
	if args == "" || args == "{}" {
		return tool, `{"action":"` + action + `"}`
	}
	return tool, `{"action":"` + action + `",` + args[1:]
}

func TestDeadlineReturnsWhileTheHandlerIgnoresItsContext(t *testing.T) {
	for _, exp := range []vurb.Exposition{vurb.Flat, vurb.Grouped} {
		t.Run(exp.String(), func(t *testing.T) {
			release := make(chan struct{})
			var handlerDone, middlewareDone atomic.Bool
			var mu sync.Mutex
			var deadlines []time.Duration

			f := vurb.New(vurb.WithExposition(exp), vurb.WithTimeout(time.Hour), vurb.WithLogger(slog.New(slog.DiscardHandler)))
			jobs := f.Tool("jobs")
			vurb.Query(jobs, "stuck", func(ctx context.Context, _ noInput) (string, error) {
				if dl, ok := ctx.Deadline(); ok {
					mu.Lock()
					deadlines = append(deadlines, time.Until(dl))
					mu.Unlock()
				}
				<-release // ignores ctx entirely
				handlerDone.Store(true)
				return "late", nil
			}).Timeout(50 * time.Millisecond)
			vurb.Query(jobs, "slowmw", ok[noInput]("unreachable")).Timeout(50 * time.Millisecond).
				Use(func(next vurb.Handler) vurb.Handler {
					return func(ctx context.Context, c *vurb.Call) (*mcp.CallToolResult, error) {
						<-release // a middleware that ignores ctx is bounded the same way
						middlewareDone.Store(true)
						return next(ctx, c)
					}
				})
			vurb.Query(jobs, "ping", ok[noInput]("pong"))
			cs := connect(t, f, nil)

			is := is.New(t)
			for _, action := range []string{"stuck", "slowmw"} {
				name, args := wireCall(exp, "jobs", action, "{}")
				res, err := callRaw(t, cs, name, args)
				is.NoErr(err)
				is.True(res.IsError)
				is.Equal(text(res), timeoutText(exp, "jobs", action, 50*time.Millisecond))
			}
			// The calls returned while both were still blocked.
			is.True(!handlerDone.Load())
			is.True(!middlewareDone.Load())
			mu.Lock()
			is.Equal(len(deadlines), 1)
			is.True(deadlines[0] > 0 && deadlines[0] <= 50*time.Millisecond) // the handler's ctx carries the action's deadline
			mu.Unlock()

			close(release)
			waitFor(t, func() bool { return handlerDone.Load() && middlewareDone.Load() })
			name, args := wireCall(exp, "jobs", "ping", "{}")
			res, err := callRaw(t, cs, name, args)
			is.NoErr(err)
			is.Equal(text(res), "pong") // the late results were dropped; the session serves on
		})
	}
}

func TestPanicAfterTheDeadlineIsRecovered(t *testing.T) {
	is := is.New(t)
	var logs syncBuffer
	release := make(chan struct{})
	f := vurb.New(vurb.WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	vurb.Mutation(f, "jobs.late", func(context.Context, noInput) (string, error) {
		<-release
		panic("late panic, after the caller has gone")
	}).Timeout(20 * time.Millisecond)
	vurb.Query(f, "jobs.ping", ok[noInput]("pong"))
	cs := connect(t, f, nil)

	res, err := callRaw(t, cs, "jobs_late", `{}`)
	is.NoErr(err)
	is.Equal(text(res), timeoutText(vurb.Flat, "jobs", "late", 20*time.Millisecond))
	close(release)
	// The panic happens on the abandoned handler goroutine: it must be
	// recovered and logged, not crash the process.
	waitFor(t, func() bool { return strings.Contains(logs.String(), "late panic, after the caller has gone") })
	res, err = callRaw(t, cs, "jobs_ping", `{}`)
	is.NoErr(err)
	is.Equal(text(res), "pong")
}

// outcomes records how calls finished, by action.
type outcomes struct {
	mu  sync.Mutex
	got map[string][]observe.Outcome
}

func (o *outcomes) observe(_ context.Context, e observe.Event) {
	if e.Kind != observe.CallFinished {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.got == nil {
		o.got = map[string][]observe.Outcome{}
	}
	o.got[e.Action] = append(o.got[e.Action], e.Outcome)
}

func (o *outcomes) of(action string) []observe.Outcome {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]observe.Outcome(nil), o.got[action]...)
}

func TestClientCancellationReachesEveryLayer(t *testing.T) {
	for _, exp := range []vurb.Exposition{vurb.Flat, vurb.Grouped} {
		t.Run(exp.String(), func(t *testing.T) {
			is := is.New(t)
			var obs outcomes
			started := make(chan struct{}, 1)
			release := make(chan struct{})
			defer close(release)
			seen := make(chan string, 8) // what each layer saw once the call was over

			f := vurb.New(vurb.WithExposition(exp), vurb.WithObserver(obs.observe), vurb.WithLogger(slog.New(slog.DiscardHandler)))
			f.Use(func(next vurb.Handler) vurb.Handler {
				return func(ctx context.Context, c *vurb.Call) (*mcp.CallToolResult, error) {
					res, err := next(ctx, c)
					seen <- "app middleware: " + fmt.Sprint(context.Cause(ctx))
					return res, err
				}
			})
			jobs := f.Tool("jobs")
			vurb.Query(jobs, "wait", func(ctx context.Context, _ noInput) (string, error) {
				started <- struct{}{}
				<-ctx.Done()
				seen <- "handler: " + fmt.Sprint(ctx.Err())
				return "", ctx.Err()
			})
			vurb.Query(jobs, "deaf", func(ctx context.Context, _ noInput) (string, error) {
				started <- struct{}{}
				<-release // ignores ctx
				return "late", nil
			})
			vurb.Query(jobs, "ping", ok[noInput]("pong"))
			cs := connect(t, f, nil)

			cancelOnStart := func(action string) error {
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				go func() { <-started; cancel() }()
				name, args := wireCall(exp, "jobs", action, "{}")
				_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: json.RawMessage(args)})
				return err
			}

			// A handler that honours ctx sees context.Canceled (not a deadline),
			// and so does every middleware around it.
			err := cancelOnStart("wait")
			is.True(errors.Is(err, context.Canceled))
			is.Equal(recv(t, seen), "handler: context canceled")
			is.Equal(recv(t, seen), "app middleware: context canceled")
			waitFor(t, func() bool { return len(obs.of("wait")) == 1 })
			is.Equal(obs.of("wait"), []observe.Outcome{observe.OutcomeCancelled})

			// A handler that ignores ctx does not hold the call: the server
			// finishes it as cancelled while the handler is still blocked.
			err = cancelOnStart("deaf")
			is.True(errors.Is(err, context.Canceled))
			waitFor(t, func() bool { return len(obs.of("deaf")) == 1 })
			is.Equal(obs.of("deaf"), []observe.Outcome{observe.OutcomeCancelled})

			// The session is unharmed.
			name, args := wireCall(exp, "jobs", "ping", "{}")
			res, err := callRaw(t, cs, name, args)
			is.NoErr(err)
			is.Equal(text(res), "pong")
		})
	}
}

// recv receives from ch within a bounded wait.
func recv[T any](t *testing.T, ch <-chan T) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(5 * time.Second):
		t.Fatal("nothing received in 5s")
		panic("unreachable")
	}
}

// goroutineDump is every goroutine's stack, for a failed leak check.
func goroutineDump() string {
	buf := make([]byte, 1<<20)
	return string(buf[:runtime.Stack(buf, true)])
}

// settledGoroutines waits until the goroutine count stops changing (the
// SDK's per-session goroutines and the previous test's leftovers) and
// returns it.
func settledGoroutines() int {
	n := runtime.NumGoroutine()
	for range 50 {
		time.Sleep(10 * time.Millisecond)
		m := runtime.NumGoroutine()
		if m == n {
			return n
		}
		n = m
	}
	return n
}

// waitGoroutines fails unless the goroutine count gets back to at most
// want within a bounded wait.
func waitGoroutines(t *testing.T, want int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		n := runtime.NumGoroutine()
		if n <= want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines remain, want at most %d (the baseline):\n%s", n, want, goroutineDump())
		}
		// Idle handler workers end when the collector drops them from
		// their pool, two cycles after their last call.
		runtime.GC()
		time.Sleep(5 * time.Millisecond)
	}
}

func TestNoGoroutineIsLeftBehind(t *testing.T) {
	var startedWaits atomic.Int64
	f := vurb.New(vurb.WithLogger(slog.New(slog.DiscardHandler)))
	jobs := f.Tool("jobs")
	vurb.Query(jobs, "fast", func(_ context.Context, in HostileInput) (string, error) { return "ok " + in.Name, nil })
	vurb.Query(jobs, "honour", func(ctx context.Context, _ noInput) (string, error) {
		<-ctx.Done() // honours ctx: times out, returns
		return "", ctx.Err()
	}).Timeout(2 * time.Millisecond)
	vurb.Query(jobs, "cancelme", func(ctx context.Context, _ noInput) (string, error) {
		startedWaits.Add(1)
		<-ctx.Done() // honours ctx: the caller cancels, it returns
		return "", ctx.Err()
	}).Timeout(time.Hour)
	vurb.Mutation(jobs, "panic", func(context.Context, noInput) (string, error) { panic("boom") })
	cs := connect(t, f, nil)

	// One call of each kind, served and in-process, so whatever the SDK and
	// the runtime start lazily exists before the baseline is taken.
	type callFunc func(ctx context.Context, name, args string) error
	served := func(ctx context.Context, name, args string) error {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: json.RawMessage(args)})
		return err
	}
	local := func(ctx context.Context, name, args string) error {
		_, err := f.Call(ctx, name, json.RawMessage(args))
		return err
	}
	round := func(do callFunc, i int) error {
		for _, c := range [][2]string{
			{"jobs_fast", fmt.Sprintf(`{"name":"n%d"}`, i)},
			{"jobs_fast", `{"name":7}`}, // refused before any goroutine starts
			{"jobs_honour", `{}`},
			{"jobs_panic", `{}`},
			{"nope", `{}`},
		} {
			if err := do(context.Background(), c[0], c[1]); err != nil && c[0] != "nope" {
				return fmt.Errorf("%s: %w", c[0], err)
			}
		}
		// Cancel once the handler is running.
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		want := startedWaits.Load() + 1
		go func() {
			for startedWaits.Load() < want {
				runtime.Gosched()
			}
			cancel()
		}()
		if err := do(ctx, "jobs_cancelme", `{}`); !errors.Is(err, context.Canceled) {
			return fmt.Errorf("cancelme: got %v, want context.Canceled", err)
		}
		return nil
	}
	for _, do := range []callFunc{served, local} {
		if err := round(do, 0); err != nil {
			t.Fatal(err)
		}
	}
	baseline := settledGoroutines()

	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			do := served
			if w%2 == 1 {
				do = local
			}
			for i := range 40 {
				if err := round(do, w*1000+i); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	waitGoroutines(t, baseline)
}

func TestHandlersThatIgnoreTheirContextRunOn(t *testing.T) {
	// The documented trade-off: the call returns at its deadline, but the
	// handler's goroutine lives until the handler returns. Once it does,
	// nothing is left.
	is := is.New(t)
	release := make(chan struct{})
	var running atomic.Int64
	f := vurb.New(vurb.WithLogger(slog.New(slog.DiscardHandler)))
	vurb.Query(f, "jobs.deaf", func(context.Context, noInput) (string, error) {
		running.Add(1)
		defer running.Add(-1)
		<-release
		return "late", nil
	}).Timeout(time.Millisecond)
	vurb.Query(f, "jobs.ping", ok[noInput]("pong"))
	is.Equal(text(call(t, f, "jobs_ping", `{}`)), "pong")
	baseline := settledGoroutines()

	const n = 50
	for range n {
		is.Equal(text(call(t, f, "jobs_deaf", `{}`)), timeoutText(vurb.Flat, "jobs", "deaf", time.Millisecond))
	}
	waitFor(t, func() bool { return running.Load() == n }) // each stuck handler still holds its goroutine
	is.True(runtime.NumGoroutine() >= n)
	close(release)
	waitGoroutines(t, baseline)
	is.Equal(running.Load(), int64(0))
}

func TestResultAfterTheDeadlineIsDropped(t *testing.T) {
	// Many calls at once, so that the calling goroutines are often scheduled
	// only after both the deadline and the handler's return.
	f := vurb.New(vurb.WithLogger(slog.New(slog.DiscardHandler)))
	vurb.Query(f, "jobs.deaf", func(context.Context, noInput) (string, error) {
		time.Sleep(3 * time.Millisecond) // ignores ctx, ends after its deadline
		return "late", nil
	}).Timeout(2 * time.Millisecond)
	var late atomic.Int64
	var wg sync.WaitGroup
	for range 400 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 10 {
				res, err := f.Call(context.Background(), "jobs_deaf", nil)
				if err == nil && !res.IsError {
					late.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	if n := late.Load(); n > 0 {
		t.Errorf("%d of 4000 calls whose handler returned after the deadline got its result, want the timeout text", n)
	}
}
