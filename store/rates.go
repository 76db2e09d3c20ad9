package store

import (
	"context"
	"fmt"
	"time"
)

// Rate is a token bucket: it holds at most Burst tokens, refilled at Calls
// per Per, and each call spends one. A caller can thus make Burst calls at
// once, then Calls per Per for as long as it keeps calling. Its String
// says the rate as a model reads it: "10 calls per second".
type Rate struct {
	Calls int
	Per   time.Duration
	Burst int
}

// String says the rate for a model: "10 calls per second".
func (r Rate) String() string {
	unit := "call"
	if r.Calls != 1 {
		unit = "calls"
	}
	switch r.Per {
	case time.Second:
		return fmt.Sprintf("%d %s per second", r.Calls, unit)
	case time.Minute:
		return fmt.Sprintf("%d %s per minute", r.Calls, unit)
	case time.Hour:
		return fmt.Sprintf("%d %s per hour", r.Calls, unit)
	}
	return fmt.Sprintf("%d %s per %s", r.Calls, unit, r.Per)
}

// Rates keeps the token buckets of an app's rate limits. The default,
// NewMemoryRates, keeps them in the process; a store shared by
// the replicas of a server (redisrate's, in Redis) lets them hold one
// limit together. vurb calls Take on the path of every rate-limited call,
// with nothing in between.
type Rates interface {
	// Take spends one token of the bucket named key, which follows r, or
	// reports how long until the bucket has one. Keys name the scope that
	// declared the limit and the caller; an unknown key is a full bucket.
	// An error lets the call through and is logged: a store that is down
	// must not take the server down with it.
	Take(ctx context.Context, key string, r Rate) (ok bool, retryAfter time.Duration, err error)
}
