package vurb

import (
	"context"
	"net"
	"time"

	"github.com/vurb-go/vurb/internal/buckets"
	"github.com/vurb-go/vurb/store"
)

// ServeListener exposes serveListener to the tests, which need a port
// chosen by the system.
func (a *App) ServeListener(ctx context.Context, ln net.Listener, opts ...ServeOption) error {
	return a.site().ServeListener(ctx, ln, serveOptions(opts)...)
}

// NewMemoryRateStoreClock returns a store.MemoryRates that reads the
// time with clock, which it calls once per Take, under the lock of the
// bucket's shard: a test records there the exact time each decision was
// made at.
func NewMemoryRateStoreClock(maxKeys int, clock func() time.Time) store.Rates {
	return clockedRates{buckets.New(maxKeys, clock)}
}

type clockedRates struct{ b *buckets.Store }

func (c clockedRates) Take(_ context.Context, key string, r store.Rate) (bool, time.Duration, error) {
	ok, after := c.b.Take(key, buckets.Rate(r))
	return ok, after, nil
}
