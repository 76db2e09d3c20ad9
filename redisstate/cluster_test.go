package redisstate_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/redis/go-redis/v9"
	"github.com/vurb-go/vurb/internal/redisserver"
	"github.com/vurb-go/vurb/redisstate"
)

// startCluster starts a Redis Cluster of three masters of the test's own
// and returns a way to give each replica its client.
func startCluster(t *testing.T) replicaClient {
	c := redisserver.StartCluster(t)
	return func(t *testing.T) redis.UniversalClient {
		rdb := redis.NewClusterClient(&redis.ClusterOptions{Addrs: c.Addrs, ContextTimeoutEnabled: true})
		t.Cleanup(func() { _ = rdb.Close() })
		return rdb
	}
}

// Through a redis.ClusterClient on three masters, the stores keep their
// promises: a script's keys share a slot, the rest spreads.
func TestClusterKeepsTheStoresPromises(t *testing.T) {
	t.Parallel()
	behaves(t, startCluster(t))
}

// Task records spread over the cluster's masters; the bookkeeping sits
// on one.
func TestClusterSpreadsTaskRecordsOverShards(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	client := startCluster(t)(t)
	s := redisstate.New(client, redisstate.WithTimeout(5*time.Second)).Tasks()
	for range 30 {
		is.NoErr(s.Create(ctx, record("alice", time.Minute)))
	}
	var holding atomic.Int32 // ForEachMaster asks the masters at once
	err := client.(*redis.ClusterClient).ForEachMaster(ctx, func(ctx context.Context, c *redis.Client) error {
		ks, err := c.Keys(ctx, redisstate.DefaultPrefix+"*").Result()
		records := 0
		for _, k := range ks {
			if strings.HasPrefix(k, redisstate.DefaultPrefix+"task:") {
				records++
			}
		}
		if records > 0 {
			holding.Add(1)
		}
		return err
	})
	is.NoErr(err)
	if holding.Load() < 2 {
		t.Fatalf("30 task records sit on %d of 3 masters; want them spread", holding.Load())
	}
}
