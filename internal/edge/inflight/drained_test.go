package inflight

import (
	"testing"

	"github.com/matryer/is"
)

// closed reports whether ch is closed, without waiting.
func closed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// A waiter is woken when the count comes down to zero, and not before;
// the next wait after that waits for the next Done.
func TestDrainedFiresAtZeroAndNotBefore(t *testing.T) {
	is := is.New(t)
	var d Drained
	count := 2 // two pieces of work in flight
	wait := d.Next()
	is.True(!closed(wait)) // work in flight: not drained

	count--
	if count == 0 {
		d.Done()
	}
	is.True(!closed(wait)) // one left: still not drained

	count--
	if count == 0 {
		d.Done()
	}
	is.True(closed(wait)) // zero: every waiter is woken

	next := d.Next()
	is.True(!closed(next)) // a new wait waits for the next Done
	d.Done()
	is.True(closed(next))
}

// Done with nobody waiting does nothing, and can be called again.
func TestDrainedDoneWithoutWaiters(t *testing.T) {
	is := is.New(t)
	var d Drained
	d.Done()
	d.Done()
	is.True(!closed(d.Next()))
}
