package vurb

import "github.com/vurb-go/vurb/internal/edge"

// Replicas is what the replicas of one server share, so that a balancer
// with no session affinity may send any request of any client to any of
// them. redisstate.Store.Replicas gives all three, in one Redis:
//
//	app := vurb.New(vurb.WithName("projects"),
//		vurb.WithReplicas(redisstate.New(rdb).Replicas()),
//		vurb.WithRequestStateKeys(stateKey)) // the same 32 random bytes on every replica
//
// A single process needs none of it: the default keeps sessions and tasks
// in memory and has no bus.
type Replicas struct {
	// Sessions keeps the records of handshake-era sessions: the HTTP
	// handlers' store unless WithSessionStore names another.
	Sessions SessionStore
	// Tasks keeps the tasks: the app's store unless TaskConfig names
	// another.
	Tasks TaskStore
	// Bus carries what one replica learns to the others: the answer to a
	// question another replica asked the client (elicitation, sampling,
	// roots), a session's log level and subscriptions, a session ended, a
	// task cancelled, a resource updated (NotifyResourceUpdated reaches
	// the subscribers of every replica).
	Bus Bus
}

// A Bus carries messages between the replicas of one server: Publish
// reaches every replica's subscription, in order. redisstate's is Redis
// publish/subscribe; a message lost while the bus is down is lost (the
// replicas go on serving what does not need it).
type Bus = edge.Bus

// WithReplicas makes the app one of several replicas that share r (see
// Replicas; the README's "Running several replicas" tells what is shared
// and what each replica keeps). Give every replica the same
// WithRequestStateKeys too.
func WithReplicas(r Replicas) Option {
	return func(c *config) { c.replicas = r }
}
