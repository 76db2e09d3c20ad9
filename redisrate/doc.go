// Package redisrate is a store.Rates kept in Redis, so that the
// replicas of a vurb server behind a load balancer hold one rate limit
// together:
//
//	client := redis.NewClient(&redis.Options{Addr: "redis:6379", ContextTimeoutEnabled: true})
//	app := vurb.New(
//		vurb.WithRateStore(redisrate.New(client)),
//		vurb.WithRateLimit(vurb.PerCaller(600, time.Minute)),
//	)
//
// Use it when a server runs as several replicas: with vurb's default
// store, kept in each process, every replica holds a bucket of its own
// and a caller whose calls are spread over n replicas gets n times the
// rate. One replica needs nothing from here: the default is exact and
// costs no round trip.
//
// Each Take is one round trip running one Lua script on the Redis
// server, atomically: it refills the bucket for the time elapsed, by the
// clock of Redis (TIME), so that the replicas' clocks do not matter, and
// spends a token or says how long until there is one. The bucket follows
// store.Rate exactly as vurb's MemoryRateStore does, with the same
// answers: an unknown key is a full bucket, and a bucket whose rate the
// app changed keeps its tokens and refills at the new rate. A bucket's key
// expires when it would have refilled, since a full bucket is the same as
// none: callers gone idle cost Redis no memory.
//
// When Redis is down or slow, Take returns the error, and vurb lets the
// call through unlimited and logs it (see store.Rates): a limiter that
// is down does not take the server down with it. A call waits for Redis
// at most DefaultTimeout, 250 ms (WithTimeout sets another bound), when
// the client's options set ContextTimeoutEnabled, as above: go-redis
// otherwise waits out its own ReadTimeout on a Redis that hangs.
package redisrate
