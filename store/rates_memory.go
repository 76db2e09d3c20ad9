package store

import (
	"context"
	"time"

	"github.com/vurb-go/vurb/internal/buckets"
)

// DefaultMaxRateKeys bounds the buckets NewMemoryRates keeps when not told
// otherwise: about 20 MB of memory at most.
const DefaultMaxRateKeys = buckets.DefaultMaxKeys

// MemoryRates is the Rates of one process, the default of an app: token
// buckets (golang.org/x/time/rate limiters) in memory, right for one
// replica; behind a load balancer, use a store the replicas share.
//
// It never holds more than its bound of buckets, however many callers
// come. A bucket left alone long enough to have refilled is the same as
// none, so it is forgotten without changing any answer; when the store is
// full of buckets still refilling, it forgets the least recently used
// eighth, whose callers get a full bucket back.
type MemoryRates struct{ b *buckets.Store }

// NewMemoryRates returns an empty MemoryRates that keeps at most maxKeys
// buckets (DefaultMaxRateKeys when maxKeys <= 0).
func NewMemoryRates(maxKeys int) *MemoryRates { return &MemoryRates{buckets.New(maxKeys, nil)} }

// Take spends a token of the bucket named key (Rates). It never fails.
func (m *MemoryRates) Take(_ context.Context, key string, r Rate) (bool, time.Duration, error) {
	ok, after := m.b.Take(key, buckets.Rate(r))
	return ok, after, nil
}

// Len returns the number of buckets the store holds.
func (m *MemoryRates) Len() int { return m.b.Len() }
