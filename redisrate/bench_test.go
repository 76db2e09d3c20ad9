package redisrate_test

import (
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vurb-go/vurb/redisrate"
	"github.com/vurb-go/vurb/store"
)

// benchRate never runs dry, so every Take spends a token: the common case.
var benchRate = store.Rate{Calls: 1_000_000_000, Per: time.Second, Burst: 1_000_000_000}

// One caller after another on one bucket: the latency a call pays, one
// round trip to a redis-server on the same host.
func BenchmarkTake(b *testing.B) {
	s := redisrate.New(startRedis(b).client(b))
	for b.Loop() {
		if _, _, err := s.Take(ctx, "k", benchRate); err != nil {
			b.Fatal(err)
		}
	}
}

// Many callers at once, each on its own bucket: the throughput of one
// replica's client against one Redis.
func BenchmarkTakeParallel(b *testing.B) {
	s := redisrate.New(startRedis(b).client(b))
	var id atomic.Int64
	b.RunParallel(func(pb *testing.PB) {
		key := fmt.Sprint("caller-", id.Add(1))
		for pb.Next() {
			if _, _, err := s.Take(ctx, key, benchRate); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// The floor of BenchmarkTake: a bare PING, one round trip to the same
// redis-server with no script.
func BenchmarkPing(b *testing.B) {
	c := startRedis(b).client(b)
	for b.Loop() {
		if err := c.Ping(ctx).Err(); err != nil {
			b.Fatal(err)
		}
	}
}
