// Package store defines what vurb keeps between requests, and what the
// replicas of an app share: the records of tasks (Task) and of
// handshake-era sessions (Session) and the stores that keep them (Tasks,
// Sessions), the instances of workflows (Instance, Workflows), the Bus
// that carries messages between replicas, the Ledger
// that spends a key once over all of them, Replicas, which gathers them
// for vurb.WithReplicas, and Rates, the token buckets of rate limits.
//
// It stands apart from the vurb package because these are contracts
// that others implement: a store kept elsewhere (redisstate keeps all of
// them in Redis) implements these interfaces and reads these records and
// nothing else of vurb, and go doc shows here every method it must
// provide and what vurb relies on. vurb serves with them and never asks
// more of a store than what this package says.
//
// One process needs none of it beyond the defaults: vurb keeps its tasks
// in a MemoryTasks, bounded in tasks and in bytes, in all and per
// caller, and its sessions in the process.
package store
