// Package bus carries between the replicas of an app what one of them
// learns that the others must act on.
//
// Replicas of one server behind a balancer without affinity each hold
// some of a session's pieces: the POST stream of a call that asked the
// client a question, the GET stream that waits for notifications, the
// go-sdk session a subscription was made on. What one replica learns that
// the others must act on travels on a Bus: the answer to a question
// another replica asked, a session's new log level or subscription, a
// session ended, a resource updated. A single process has no bus and
// needs none.
//
// A Hub is one app's end of a store.Bus: it seals and dates what this
// replica publishes, opens, checks and acts on what the others publish.
// What it needs of the rest of the edge (the replica's own sessions,
// tasks and subscribers) it names as an interface of its own (Local,
// seams.go), so it never imports the edge, which builds it.
package bus
