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
// Through vurb.WithReplicas the app asks the store for its own state
// (Store.ForApp): every key and the bus's channel then begin with
// DefaultPrefix, the app's name and a colon ("vurb:projects:"), so that
// apps of different names never share state on one Redis. Two different
// apps with the same name must set their own prefix (WithPrefix), since
// the replicas of one app find each other by their name.
//
// One process needs nothing from here: vurb's default stores, kept in
// memory, cost no round trip. It is a module of its own so that vurb's
// go.mod never lists a Redis client: an app that does not run replicas
// does not download, vet or build one.
//
// # Tasks
//
// A task is one JSON value (store.Task as it encodes) behind its
// revision, whose key expires at the record's Expires time: Redis drops
// it, and Get and Update no longer find it (store.ErrTaskNotFound). The
// store is bounded as store.MemoryTasks is, in tasks and in bytes (of
// JSON), in all and per caller (store.Task's Caller), and refuses a task
// beyond a bound with store.ErrTasksFull rather than drop another
// caller's task early: one caller filling its share refuses nobody but
// itself. As in store.MemoryTasks, a caller's finished tasks never
// keep it from running more: at its share, its own oldest finished task
// goes (a sorted set per caller, {tasks}:done:<caller>, in the
// bookkeeping's slot) and the script answers its id for the store to
// delete the record.
//
// The records carry no hash tag, so on a Redis Cluster they spread over
// the shards; the bookkeeping of the bounds (the ids by expiry, each
// task's size and caller, the counts per caller and in all) shares one
// hash tag ({tasks}), so that one Lua script counts and checks the bounds
// atomically for every replica at once. A script cannot touch a record
// and the bookkeeping together on a cluster, so each change takes the
// bookkeeping first, then the record, and the order keeps the bounds:
//
//   - Create is two round trips: the script counts the task (or refuses
//     it), then the record is written. A replica that dies, or a Redis
//     that fails, between the two leaves the task counted and no record:
//     the bounds refuse a little early until the task would have expired,
//     and never let too much in.
//   - Get is one round trip: the record.
//   - Update reads the record and its revision (one round trip), runs its
//     function on a copy in the replica, and writes the result with a
//     script on the record alone that compares the revision (one more);
//     if another write came in between, it reads again and retries, a
//     bounded number of times, so two replicas never lose each other's
//     changes. When the record grows or lives longer, a script first has
//     the bookkeeping count it so (one round trip more, which may refuse
//     it). What a task counts never shrinks while it lives, so a record
//     is never larger than what is counted for it, whichever of two
//     concurrent updates wins; a record that shrinks is counted at the
//     most it held until it expires.
//
// Every script that touches the bookkeeping first reclaims the space of
// tasks expired by Redis's clock, and sets its keys to expire with the
// latest task: every key of the store expires, and a store left idle
// leaves nothing in Redis.
//
// A record's expiry is its Expires time, set by the clock of the replica
// that created it and kept by the clocks of Redis: keep the clocks in
// step (NTP), as for any TTL a client sets. On a cluster the bookkeeping
// reclaims a task by the clock of its shard, and the record expires by
// the clock of its own.
//
// The tests run every store through a single Redis, a Redis Cluster of
// three masters (redis.NewClusterClient) and a Sentinel set-up
// (redis.NewFailoverClient), across a failover.
//
// # Sessions
//
// A session is one JSON value (store.Session) whose key expires at
// the ttl each Save gives. Session keys carry no hash tag and spread over
// a cluster's shards.
//
// # The bus
//
// Bus is Redis publish/subscribe on one channel (the prefix, then "bus"):
// one subscription per app, which go-redis resubscribes by itself when
// its connection breaks. Publish/subscribe keeps nothing, so a message
// published while a replica's subscription is down is lost to it. vurb
// seals every message it publishes (see store.Replicas): a client of the
// Redis that can publish on the channel makes no replica act.
//
// # The ledger and the per-caller session share
//
// Ledger spends each sealed input-request state with one SET NX that
// expires with the state, so it is played once for the deployment.
// SessionStore.Admit counts each caller's sessions in a sorted set scored
// by when each was last saved, trimmed in one Lua script: the share
// (vurb.WithMaxSessionsPerCaller) holds over every replica.
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
