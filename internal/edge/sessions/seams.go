package sessions

import "context"

// Health is what the probes of a shared store report to, met by the
// edge's store health.
type Health interface {
	// Found is told what a probe's read of the store returned.
	Found(err error)
	// Lost is told that the store lost its data, or was out of reach.
	Lost()
	// Recovering reports whether the store has just come back, empty.
	Recovering(ctx context.Context) bool
}
