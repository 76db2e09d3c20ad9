package vurb_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb/store"
)

func TestMemoryRateStoreBucket(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	s := store.NewMemoryRates(0)
	r := store.Rate{Calls: 10, Per: time.Second, Burst: 2}
	for range 2 {
		ok, _, err := s.Take(context.Background(), "k", r)
		is.NoErr(err)
		is.True(ok)
	}
	ok, after, err := s.Take(context.Background(), "k", r)
	is.NoErr(err)
	is.True(!ok)
	is.True(after > 0 && after <= 100*time.Millisecond) // one token every 100 ms
	ok, _, _ = s.Take(context.Background(), "other", r)
	is.True(ok) // buckets are per key
}

// However many callers come, the store keeps its bound, and what it
// forgets first is what was used least recently.
func TestMemoryRateStoreIsBounded(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	const bound = 256
	s := store.NewMemoryRates(bound)
	slow := store.Rate{Calls: 1, Per: time.Hour, Burst: 1} // never refills during the test
	for i := range 20_000 {
		ok, _, err := s.Take(context.Background(), fmt.Sprint("caller-", i), slow)
		is.NoErr(err)
		is.True(ok) // a new caller has a full bucket
		if n := s.Len(); n > bound {
			t.Fatalf("after %d callers the store holds %d buckets; the bound is %d", i+1, n, bound)
		}
	}
	// The latest callers are still remembered: their buckets are empty.
	ok, _, _ := s.Take(context.Background(), "caller-19999", slow)
	is.True(!ok)
}

// A bucket left alone long enough to refill is the same as none: a full
// store forgets those first, and keeps the buckets still refilling, even
// the least recently used.
func TestMemoryRateStoreForgetsRefilledBucketsFirst(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	s := store.NewMemoryRates(128)
	slow := store.Rate{Calls: 1, Per: time.Hour, Burst: 1}
	ok, _, _ := s.Take(context.Background(), "victim", slow) // the oldest bucket, empty for an hour
	is.True(ok)
	fast := store.Rate{Calls: 1_000_000_000, Per: time.Second, Burst: 1} // refilled within a nanosecond
	for i := range 5_000 {
		_, _, _ = s.Take(context.Background(), fmt.Sprint("fast-", i), fast)
	}
	is.True(s.Len() <= 128)
	ok, _, _ = s.Take(context.Background(), "victim", slow)
	is.True(!ok) // still remembered: forgetting it would have given it a token
}
