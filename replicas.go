package vurb

import "github.com/vurb-go/vurb/internal/edge"

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
// in memory and has no bus.
type Replicas struct {
	// Sessions keeps the records of handshake-era sessions, and counts
	// each caller's sessions over the deployment: the HTTP handlers'
	// store unless WithSessionStore names another.
	Sessions SessionStore
	// Tasks keeps the tasks: the app's store unless TaskConfig names
	// another.
	Tasks TaskStore
	// Bus carries what one replica learns to the others: the answer to a
	// question another replica asked the client (elicitation, sampling,
	// roots), a session's log level and subscriptions, a session ended, a
	// task cancelled, a resource updated (NotifyResourceUpdated reaches
	// the subscribers of every replica). Every message is sealed with a
	// key derived from WithRequestStateKeys: a replica drops, counts and
	// logs what no replica of the app sealed.
	Bus Bus
	// Ledger spends each sealed input-request state once for the
	// deployment; without it, once on each replica.
	Ledger Ledger
}

// SharedState hands the replicas of an app what they share.
// redisstate.Store is one; a Replicas value is one too, already an app's.
type SharedState interface {
	// ForApp returns what the replicas of the app named app share, kept
	// apart from what any other app sharing the same backing store holds.
	ForApp(app string) Replicas
}

// ForApp returns r as it is: its stores are the app's already.
func (r Replicas) ForApp(string) Replicas { return r }

// A Bus carries messages between the replicas of one server: Publish
// reaches every replica's subscription, in order. redisstate's is Redis
// publish/subscribe; a message lost while the bus is down is lost (the
// replicas go on serving what does not need it).
type Bus = edge.Bus

// A Ledger records keys that may be used once over all replicas.
type Ledger = edge.Ledger

// WithReplicas makes the app one of several replicas that share s, under
// the app's name (WithName): replicas of one app share a name, and two
// apps of different names on one store never see each other's sessions,
// tasks or messages. Two different apps with the same name must keep
// apart by other means (redisstate.WithPrefix). See Replicas; the
// README's "Running several replicas" tells what is shared and what each
// replica keeps. Give every replica the same WithRequestStateKeys too:
// the app panics at Build without them, since they authenticate the
// replicas' bus.
func WithReplicas(s SharedState) Option {
	return func(c *config) { c.shared = s }
}
