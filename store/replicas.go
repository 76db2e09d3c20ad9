package store

import (
	"context"
	"time"
)

// Replicas is what the replicas of one app share, so that a balancer
// with no session affinity may send any request of any client to any of
// them. redisstate.Store gives all of it, in one Redis, kept apart from
// every other app's by the app's name:
//
//	app := vurb.New(vurb.WithName("projects"),
//		vurb.WithReplicas(redisstate.New(rdb)),
//		vurb.WithRequestStateKeys(stateKey)) // the same 32 random bytes on every replica
//
// A single process needs none of it: the default keeps sessions and tasks
// in memory and has no bus. A nil field keeps its default.
type Replicas struct {
	// Sessions keeps the records of handshake-era sessions, and counts
	// each caller's sessions over the deployment: the HTTP handlers'
	// store unless vurb.WithSessionStore names another.
	Sessions Sessions
	// Tasks keeps the tasks: the app's store unless vurb.TaskConfig
	// names another.
	Tasks Tasks
	// Bus carries what one replica learns to the others: the answer to a
	// question another replica asked the client (elicitation, sampling,
	// roots), a session's log level and subscriptions, a session ended, a
	// task cancelled, a resource updated (vurb.NotifyResourceUpdated
	// reaches the subscribers of every replica). Every message is sealed
	// with a key derived from vurb.WithRequestStateKeys: a replica drops,
	// counts and logs what no replica of the app sealed.
	Bus Bus
	// Ledger spends each sealed input-request state once for the
	// deployment; without it, once on each replica.
	Ledger Ledger
	// Workflows keeps the instances of the app's workflows, so that any
	// replica enforces their state gate; without it, each replica keeps
	// its own in memory.
	Workflows Workflows
}

// ForApp returns r as it is: its stores are the app's already.
func (r Replicas) ForApp(string) Replicas { return r }

// Shared hands the replicas of an app what they share
// (vurb.WithReplicas). redisstate.Store is one; a Replicas value is one
// too, already an app's.
type Shared interface {
	// ForApp returns what the replicas of the app named app share, kept
	// apart from what any other app sharing the same backing store holds.
	ForApp(app string) Replicas
}

// A Bus carries messages between the replicas of one server: Publish
// reaches every replica's subscription, in order. redisstate's is Redis
// publish/subscribe; a message lost while the bus is down is lost (the
// replicas go on serving what does not need it). vurb seals every message
// it publishes, so a bus need not keep them secret.
type Bus interface {
	// Publish sends msg to every replica subscribed, this one included,
	// and returns how many subscriptions received it (Redis's PUBLISH
	// answer), which tells a replica how many acknowledgements to wait for.
	Publish(ctx context.Context, msg []byte) (receivers int, err error)
	// Subscribe calls deliver with each message published from now on,
	// in order and on one goroutine, until ctx is done. It returns at once;
	// a subscription that breaks resumes by itself, and what was published
	// meanwhile is lost.
	Subscribe(ctx context.Context, deliver func(msg []byte))
}

// A Ledger records keys that may be used once over all the replicas of an
// app: each sealed input-request state is spent in it, so that a state is
// played once for the deployment, not once on each replica. A call that
// carries no state never reads it. redisstate's is one SET NX a state.
type Ledger interface {
	// Spend records key until ttl from now and reports whether it was
	// new: false when it was spent already. An error spends nothing: the
	// state is refused, and the client may send it again.
	Spend(ctx context.Context, key string, ttl time.Duration) (fresh bool, err error)
}
