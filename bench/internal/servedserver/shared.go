package main

import (
	"crypto/sha256"
	"fmt"

	"github.com/redis/go-redis/v9"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/redisstate"
)

// shared is what -redis gives every vurb contender built after it is set:
// the request-state key every replica shares and WithReplicas (sessions,
// tasks and the bus between replicas in that Redis), so that several
// processes behind one balancer are the replicas of one server (issue #30).
var shared struct {
	opts  []vurb.Option
	serve []vurb.ServeOption
}

// useRedis keeps the sessions of the vurb contenders in the Redis at
// redisURL (redis://HOST:PORT), with a request-state key derived from the
// URL: every replica started with the same URL has the same key (fit for
// a benchmark, not for a deployment).
func useRedis(contender, redisURL string) error {
	if contender != "vurb" && contender != "vurb-sdk" && contender != "vurb-inline" {
		return fmt.Errorf("-redis: %s keeps no state in Redis; only the vurb contenders do", contender)
	}
	opts, err := redis.ParseURL(redisURL)
	if err != nil {
		return fmt.Errorf("-redis: %w", err)
	}
	opts.ContextTimeoutEnabled = true
	key := sha256.Sum256([]byte("vurb bench request state: " + redisURL))
	store := redisstate.New(redis.NewClient(opts))
	shared.opts = []vurb.Option{vurb.WithRequestStateKeys(key[:]), vurb.WithReplicas(store)}
	return nil
}
