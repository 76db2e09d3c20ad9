package vurb

import "github.com/vurb-go/vurb/store"

// WithReplicas makes the app one of several replicas that share s, under
// the app's name (WithName): replicas of one app share a name, and two
// apps of different names on one store never see each other's sessions,
// tasks or messages. Two different apps with the same name must keep
// apart by other means (redisstate.WithPrefix). See store.Replicas for
// what is shared; redisstate.New gives all of it in one Redis, and a
// store.Replicas value gives what it holds. The README's "Running
// several replicas" tells what is shared and what each replica keeps.
// Give every replica the same WithRequestStateKeys too: the app panics
// at Build without them, since they authenticate the replicas' bus.
func WithReplicas(s store.Shared) Option {
	return func(c *config) { c.shared = s }
}
