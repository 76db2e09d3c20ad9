package engine

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/matryer/is"
)

// The call context is a context.WithDeadline that also carries the Call;
// these tests hold it to the context contract in the orders of events a
// handler can produce.

func callContextFor(parent context.Context, d time.Duration) *callContext {
	c := newCallContext(parent, time.Now().Add(d))
	c.call.Key = "t.a"
	return c
}

func TestCallContextCarriesTheCall(t *testing.T) {
	is := is.New(t)
	c := callContextFor(context.WithValue(context.Background(), ctxTestKey{}, "v"), time.Hour)
	defer c.end()
	_, ok := c.Deadline()
	is.True(ok)
	is.NoErr(c.Err())
	is.True(CallFrom(c) == &c.call)
	is.Equal(c.Value(ctxTestKey{}), "v")
	is.Equal(c.Value("other"), nil)
}

func TestCallContextDoneClosesAtTheDeadline(t *testing.T) {
	is := is.New(t)
	c := callContextFor(context.Background(), 20*time.Millisecond)
	defer c.end()
	select {
	case <-c.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("Done did not close at the deadline")
	}
	is.True(errors.Is(c.Err(), context.DeadlineExceeded))
	is.True(errors.Is(context.Cause(c), context.DeadlineExceeded))
}

func TestCallContextEndedBeforeUse(t *testing.T) {
	is := is.New(t)
	c := callContextFor(context.Background(), time.Hour)
	c.end() // the call returned; a late handler looks at its context only now
	select {
	case <-c.Done():
	default:
		t.Fatal("the context of a returned call is not done")
	}
	is.True(errors.Is(c.Err(), context.Canceled))
}

func TestCallContextEndedAfterUse(t *testing.T) {
	is := is.New(t)
	c := callContextFor(context.Background(), time.Hour)
	done := c.Done()
	c.end()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("end did not cancel the context")
	}
	is.True(errors.Is(c.Err(), context.Canceled))
}

func TestCallContextFollowsItsParent(t *testing.T) {
	is := is.New(t)
	cause := errors.New("client went away")
	parent, cancel := context.WithCancelCause(context.WithValue(context.Background(), ctxTestKey{}, "v"))
	c := callContextFor(parent, time.Hour)
	defer c.end()
	is.Equal(c.Value(ctxTestKey{}), "v") // parent values before cancellation
	cancel(cause)
	is.True(errors.Is(c.Err(), context.Canceled))
	is.Equal(context.Cause(c), cause)
	is.Equal(c.Value(ctxTestKey{}), "v") // and after
	<-c.Done()
}

func TestCallContextEarlierParentDeadlineWins(t *testing.T) {
	is := is.New(t)
	parent, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := callContextFor(parent, time.Hour)
	defer c.end()
	got, _ := c.Deadline()
	want, _ := parent.Deadline()
	is.Equal(got, want)
}

func TestCallContextDerivedContexts(t *testing.T) {
	is := is.New(t)
	c := callContextFor(context.Background(), 20*time.Millisecond)
	defer c.end()
	child, cancel := context.WithCancel(context.WithValue(c, ctxTestKey{}, "v"))
	defer cancel()
	fired := make(chan struct{})
	stop := context.AfterFunc(c, func() { close(fired) })
	defer stop()
	select {
	case <-child.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("a context derived from the call's was not cancelled at the deadline")
	}
	is.True(errors.Is(child.Err(), context.DeadlineExceeded))
	is.True(CallFrom(child) == &c.call)
	select {
	case <-fired:
	case <-time.After(5 * time.Second):
		t.Fatal("context.AfterFunc did not run at the deadline")
	}
}

// TestCallContextRaces reads the context from many goroutines while the
// call ends; run it under -race.
func TestCallContextRaces(t *testing.T) {
	for range 200 {
		c := callContextFor(context.Background(), time.Hour)
		var wg sync.WaitGroup
		for range 4 {
			wg.Go(func() { _ = c.Done(); _ = c.Err(); _ = c.Value(ctxTestKey{}) })
		}
		wg.Go(c.end)
		wg.Wait()
		select {
		case <-c.Done():
		case <-time.After(5 * time.Second):
			t.Fatal("a context made while the call ended was never cancelled")
		}
	}
}

type ctxTestKey struct{}

func TestCallContextStaysLazy(t *testing.T) {
	is := is.New(t)
	c := callContextFor(context.WithValue(context.Background(), ctxTestKey{}, "v"), time.Hour)
	_, ok := c.Deadline()
	is.True(ok)
	is.NoErr(c.Err())
	is.True(CallFrom(c) == &c.call)
	is.Equal(c.Value(ctxTestKey{}), "v")
	is.Equal(c.state.Load(), ctxLazy) // none of that needed the real context
	c.end()
	is.Equal(c.state.Load(), ctxEnded)
	is.True(errors.Is(c.Err(), context.Canceled))
}

func TestCallContextErrPastTheDeadlineWithoutDone(t *testing.T) {
	is := is.New(t)
	c := callContextFor(context.Background(), time.Millisecond)
	defer c.end()
	time.Sleep(5 * time.Millisecond)
	is.True(errors.Is(c.Err(), context.DeadlineExceeded))
	select {
	case <-c.Done(): // Err was non-nil, so Done must be closed
	default:
		t.Fatal("Err reported the deadline but Done is open")
	}
}

func TestCallContextParentCancelledBeforeUse(t *testing.T) {
	is := is.New(t)
	parent, cancel := context.WithCancel(context.Background())
	c := callContextFor(parent, time.Hour)
	defer c.end()
	cancel()
	is.True(errors.Is(c.Err(), context.Canceled))
	select {
	case <-c.Done():
	default:
		t.Fatal("Err reported the parent's cancellation but Done is open")
	}
}

func TestCallContextEndRacesItsFirstUse(t *testing.T) {
	for range 200 {
		c := callContextFor(context.Background(), time.Hour)
		var wg sync.WaitGroup
		wg.Add(2)
		go func() { defer wg.Done(); c.end() }()
		go func() { defer wg.Done(); <-c.Done() }() // must close whichever came first
		wg.Wait()
	}
}
