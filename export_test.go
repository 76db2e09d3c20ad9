package vurb

import (
	"context"
	"net"
	"time"

	"github.com/vurb-go/vurb/internal/limit"
	"github.com/vurb-go/vurb/store"
)

// ServeListener exposes serveListener to the tests, which need a port
// chosen by the system.
func (a *App) ServeListener(ctx context.Context, ln net.Listener, opts ...ServeOption) error {
	return a.site().ServeListener(ctx, ln, serveOptions(opts)...)
}

// NewMemoryRateStoreClock returns a NewMemoryRateStore that reads the
// time with clock, which it calls once per Take, under the lock of the
// bucket's shard: a test records there the exact time each decision was
// made at.
func NewMemoryRateStoreClock(maxKeys int, clock func() time.Time) store.Rates {
	return limit.NewMemoryStore(maxKeys, clock)
}
