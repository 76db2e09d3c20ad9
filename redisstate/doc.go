// Package redisstate keeps the state of a vurb server in Redis, so that
// the replicas of a server behind a load balancer, with no affinity, can
// each answer any request: a task started on one is polled, answered,
// cancelled and completed on any other (TaskStore), a handshake-era
// session opened on one is known to all (SessionStore), and what one
// replica learns that the others must act on reaches them (Bus: an answer
// to a question another replica asked, a session's log level and
// subscriptions, a session ended, a task cancelled, a resource updated).
//
//	client := redis.NewClient(&redis.Options{Addr: "redis:6379", ContextTimeoutEnabled: true})
//	app := vurb.New(vurb.WithReplicas(redisstate.New(client)),
//		vurb.WithRequestStateKeys(key)) // the same key on every replica
//
// One process needs nothing from here: vurb's default stores, kept in
// memory, cost no round trip. It is a module of its own so that vurb's
// go.mod never lists a Redis client: an app that does not run replicas
// does not download, vet or build one.
//
// # Tasks
//
// A task is one JSON value (vurb.TaskRecord as it encodes), whose key
// expires at the record's Expires time: Redis drops it, and Get and Update
// no longer find it (vurb.ErrTaskNotFound). The store is bounded as
// vurb.MemoryTaskStore is, in tasks and in bytes (of JSON), in all and per
// caller (TaskRecord.Caller), and refuses a task beyond a bound with
// vurb.ErrTaskStoreFull rather than drop a live one early: one caller
// filling its share refuses nobody but itself. Create and the write of an
// Update are each one Lua script, which checks and counts the bounds
// atomically for every replica at once; the space of expired tasks is
// reclaimed by the next Create. Update reads the record, runs its function
// on a copy in the replica, and writes the result only if no other write
// came in between (a revision the script compares); otherwise it reads
// again and retries, a bounded number of times, so two replicas never lose
// each other's changes.
//
// A record's expiry is its Expires time, set by the clock of the replica
// that created it and kept by the clock of Redis: keep the clocks in step
// (NTP), as for any TTL a client sets.
//
// Every key of the task store shares one hash tag ({tasks}), since the
// bounds are counted over all tasks in one script: on a Redis Cluster they
// live on one shard.
//
// # Sessions
//
// A session is one JSON value (vurb.SessionRecord) whose key expires at
// the ttl each Save gives. Session keys carry no hash tag and spread over
// a cluster's shards.
//
// # The bus
//
// Bus is Redis publish/subscribe on one channel (the prefix, then "bus"):
// one subscription per app, which go-redis resubscribes by itself when
// its connection breaks. Publish/subscribe keeps nothing, so a message
// published while a replica's subscription is down is lost to it.
//
// # When Redis is down or slow
//
// Every method returns an error wrapping the cause (a refused dial, a
// timeout) within the store's timeout, DefaultTimeout (250 ms) unless
// WithTimeout sets another, whatever the caller's context: vurb answers
// that request with the error, and serves everything that does not need
// the shared state. Nothing is queued, and no goroutine is started, so an
// outage costs no memory; once Redis answers again the same store works
// again, without a restart. As for redisrate, set ContextTimeoutEnabled in
// the client's options: without it go-redis waits out its own ReadTimeout
// on a Redis that accepted a command and hangs.
package redisstate
