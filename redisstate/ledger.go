package redisstate

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/vurb-go/vurb/store"
)

// Ledger is a store.Ledger in Redis: each key spent is one SET NX that
// expires with its ttl, so a sealed input-request state is played once for
// every replica sharing the Redis and the prefix. It is safe for
// concurrent use.
type Ledger struct {
	client redis.UniversalClient
	config
}

var _ store.Ledger = (*Ledger)(nil)

func newLedger(client redis.UniversalClient, c config) *Ledger {
	return &Ledger{client: client, config: c}
}

// Spend records key for ttl and reports whether it was new.
func (l *Ledger) Spend(ctx context.Context, key string, ttl time.Duration) (bool, error) {
	if ttl < time.Millisecond {
		return false, fmt.Errorf("redisstate: spend %q: ttl %v; give a ttl of a millisecond or more", key, ttl)
	}
	ctx, cancel := l.bound(ctx)
	defer cancel()
	fresh, err := l.client.SetNX(ctx, l.prefix+"spent:"+key, 1, ttl).Result()
	if err != nil {
		return false, l.failed("spend "+key, err)
	}
	return fresh, nil
}
