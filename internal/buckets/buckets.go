// Package buckets keeps token buckets (golang.org/x/time/rate limiters)
// in the process's memory, bounded: store.MemoryRates, the default store
// of an app's rate limits, is this, and tests read it with a clock of
// their own.
package buckets

import (
	"cmp"
	"hash/maphash"
	"slices"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// DefaultMaxKeys bounds the buckets a Store keeps, by default:
// about 20 MB of memory at most.
const DefaultMaxKeys = 100_000

// shardCount splits a memory store's buckets under as many locks, so that
// calls of different callers seldom wait on each other.
const shardCount = 16

// Store keeps token buckets in the process's memory.
//
// It never holds more than its bound of buckets, however many callers
// come. A bucket left alone long enough to have refilled is the same as
// none, so it is forgotten without changing any answer; when the store is
// full of buckets still refilling, it forgets the least recently used
// eighth, whose callers get a full bucket back.
type Store struct {
	seed     maphash.Seed
	perShard int
	shards   [shardCount]shard
	clock    func() time.Time // nil: time.Now; read under the shard's lock
}

type shard struct {
	mu      sync.Mutex
	buckets map[string]*bucket
}

type bucket struct {
	lim  *rate.Limiter
	rate Rate
	seen time.Time     // the last call
	fill time.Duration // how long an empty bucket takes to refill
}

// New returns an empty store that keeps at most maxKeys
// buckets (DefaultMaxKeys when maxKeys <= 0) and reads the time with
// clock (nil: time.Now). The store calls clock once per Take, under the
// lock of the bucket's shard, so a test's clock records the exact time
// each decision was made at.
func New(maxKeys int, clock func() time.Time) *Store {
	if maxKeys <= 0 {
		maxKeys = DefaultMaxKeys
	}
	s := &Store{seed: maphash.MakeSeed(), perShard: max(maxKeys/shardCount, 1), clock: clock}
	for i := range s.shards {
		s.shards[i].buckets = map[string]*bucket{}
	}
	return s
}

// Rate is a bucket's: Burst tokens at most, refilled at Calls per Per.
type Rate struct {
	Calls int
	Per   time.Duration
	Burst int
}

// Take spends a token of the bucket named key, which follows r, or
// reports how long until it has one.
func (s *Store) Take(key string, r Rate) (bool, time.Duration) {
	sh := &s.shards[maphash.String(s.seed, key)%shardCount]
	sh.mu.Lock()
	defer sh.mu.Unlock()
	// Read under the lock, so that a bucket sees its calls' times in
	// order: a time read before waiting for the lock would be older than
	// the bucket's last, and x/time/rate would count the gap twice.
	now := s.now()
	b := sh.buckets[key]
	switch {
	case b == nil:
		if len(sh.buckets) >= s.perShard {
			sh.shrink(now, s.perShard)
		}
		b = &bucket{lim: rate.NewLimiter(limitOf(r), r.Burst), rate: r, fill: fillTime(r)}
		sh.buckets[key] = b
	case b.rate != r: // the app changed its limit: keep the tokens, follow the rate
		b.lim.SetLimitAt(now, limitOf(r))
		b.lim.SetBurstAt(now, r.Burst)
		b.rate, b.fill = r, fillTime(r)
	}
	b.seen = now
	res := b.lim.ReserveN(now, 1)
	if !res.OK() { // a burst below 1: never
		return false, r.Per
	}
	if d := res.DelayFrom(now); d > 0 {
		res.CancelAt(now)
		return false, d
	}
	return true, 0
}

func (s *Store) now() time.Time {
	if s.clock != nil {
		return s.clock()
	}
	return time.Now()
}

// Len returns the number of buckets the store holds.
func (s *Store) Len() int {
	n := 0
	for i := range s.shards {
		sh := &s.shards[i]
		sh.mu.Lock()
		n += len(sh.buckets)
		sh.mu.Unlock()
	}
	return n
}

// shrink makes room in a full shard: it forgets the buckets that have
// refilled, and then, if fewer than an eighth went, the least recently
// used down to seven eighths of the bound. Each shrink frees an eighth of
// the shard, so its cost is spread over as many new buckets.
func (sh *shard) shrink(now time.Time, bound int) {
	for k, b := range sh.buckets {
		if now.Sub(b.seen) >= b.fill {
			delete(sh.buckets, k)
		}
	}
	keep := bound - max(bound/8, 1)
	if len(sh.buckets) <= keep {
		return
	}
	type seen struct {
		key string
		at  time.Time
	}
	all := make([]seen, 0, len(sh.buckets))
	for k, b := range sh.buckets {
		all = append(all, seen{k, b.seen})
	}
	slices.SortFunc(all, func(a, b seen) int { return cmp.Compare(a.at.UnixNano(), b.at.UnixNano()) })
	for _, e := range all[:len(all)-keep] {
		delete(sh.buckets, e.key)
	}
}

// limitOf is r's refill rate in tokens per second.
func limitOf(r Rate) rate.Limit { return rate.Limit(float64(r.Calls) / r.Per.Seconds()) }

// fillTime is how long r's empty bucket takes to refill.
func fillTime(r Rate) time.Duration {
	return time.Duration(float64(r.Burst) / float64(r.Calls) * float64(r.Per))
}
