package edge

// drained tells those waiting that a count of work in flight (requests,
// tasks, stdio calls) has come down to zero. Its methods run under the
// lock that guards the count.
type drained struct{ ch chan struct{} }

// done wakes every waiter: call it when the count is zero.
func (d *drained) done() {
	if d.ch != nil {
		close(d.ch)
		d.ch = nil
	}
}

// next returns a channel closed at the next done: call it when the count
// is not zero.
func (d *drained) next() <-chan struct{} {
	if d.ch == nil {
		d.ch = make(chan struct{})
	}
	return d.ch
}
