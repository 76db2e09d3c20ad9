package redisrate

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/vurb-go/vurb/store"
)

// DefaultPrefix begins the Redis key of every bucket, unless WithPrefix
// sets another.
const DefaultPrefix = "vurb:rate:"

// Store is a store.Rates whose token buckets are kept in Redis, one
// hash per bucket: the replicas of a server that share a Store's Redis
// share its buckets. It is safe for concurrent use.
type Store struct {
	client  redis.Scripter
	prefix  string
	timeout time.Duration
}

var _ store.Rates = (*Store)(nil)

// Option configures a Store.
type Option func(*Store)

// WithPrefix sets what begins the key of every bucket (default
// DefaultPrefix), so that several apps, or an app and other users of the
// same Redis, keep their keys apart. Replicas that hold a limit together
// must use the same prefix.
func WithPrefix(prefix string) Option { return func(s *Store) { s.prefix = prefix } }

// DefaultTimeout bounds each Take unless WithTimeout sets another bound.
// A Take normally takes one round trip, a small multiple of a bare PING's
// and far below the bound (BenchmarkTake and BenchmarkPing,
// bench/README.md). With Redis down, go-redis's default
// options retry the dial for about 1.7 s, which every call would wait
// without a bound.
const DefaultTimeout = 250 * time.Millisecond

// WithTimeout bounds each Take to d (default DefaultTimeout; 0 for no
// bound beyond the call's own context and the client's timeouts). Past
// it Take returns an error and vurb lets the call through, so a Redis
// that is down or hung costs a call at most d.
//
// Set ContextTimeoutEnabled in the client's options: without it, go-redis
// waits out its own ReadTimeout on a Redis that accepted the command and
// hangs, whatever the bound (a stopped redis-server held each Take 5 s
// with the default options, 100 ms with ContextTimeoutEnabled and a
// 100 ms bound). A dial to a Redis that is down is cut at the bound
// either way.
func WithTimeout(d time.Duration) Option { return func(s *Store) { s.timeout = d } }

// New returns a Store that keeps its buckets through client: a
// *redis.Client, *redis.ClusterClient, *redis.Ring or any
// redis.UniversalClient. Each bucket is one key, so a cluster spreads them
// over its shards.
func New(client redis.Scripter, opts ...Option) *Store {
	if client == nil {
		panic("redisrate: New(nil): give a Redis client, such as redis.NewClient(&redis.Options{Addr: ...})")
	}
	s := &Store{client: client, prefix: DefaultPrefix, timeout: DefaultTimeout}
	for _, o := range opts {
		o(s)
	}
	return s
}

// Take spends one token of the bucket named key, which follows r, or
// reports how long until the bucket has one (store.Rates). It costs
// one round trip to Redis; its error, when Redis is down or the timeout
// passed, lets vurb's call through.
func (s *Store) Take(ctx context.Context, key string, r store.Rate) (bool, time.Duration, error) {
	if r.Calls <= 0 || r.Per <= 0 {
		return false, 0, fmt.Errorf("redisrate: rate %d calls per %s never refills; make one with vurb.PerCaller or vurb.AllCallers", r.Calls, r.Per)
	}
	if r.Burst < 1 { // no token ever: as vurb's memory store answers
		return false, r.Per, nil
	}
	if s.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.timeout)
		defer cancel()
	}
	res, err := take.Run(ctx, s.client, []string{s.prefix + key}, r.Calls, int64(r.Per), r.Burst).Int64Slice()
	if err != nil {
		return false, 0, fmt.Errorf("redisrate: take a token: %w", err)
	}
	if len(res) != 2 {
		return false, 0, fmt.Errorf("redisrate: take a token: the script answered %v", res)
	}
	if res[0] == 1 {
		return true, 0, nil
	}
	return false, time.Duration(res[1]) * time.Microsecond, nil
}
