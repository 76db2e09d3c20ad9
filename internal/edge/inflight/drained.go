// Package inflight tells those waiting for work in flight (requests,
// tasks, stdio calls) that its count came down to zero: the HTTP server's
// graceful shutdown, the task runner and the stdio transport each keep
// such a count, and share this one signal rather than three.
package inflight

// Drained tells those waiting that a count of work in flight (requests,
// tasks, stdio calls) has come down to zero. Its methods run under the
// lock that guards the count.
type Drained struct{ ch chan struct{} }

// Done wakes every waiter: call it when the count is zero.
func (d *Drained) Done() {
	if d.ch != nil {
		close(d.ch)
		d.ch = nil
	}
}

// Next returns a channel closed at the next Done: call it when the count
// is not zero.
func (d *Drained) Next() <-chan struct{} {
	if d.ch == nil {
		d.ch = make(chan struct{})
	}
	return d.ch
}
