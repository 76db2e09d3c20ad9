package bus

import (
	"encoding/json"
	"time"
)

// The kinds of bus messages.
const (
	// kindSession: a message one replica received for a session, which
	// every replica holding the session passes to its go-sdk session.
	kindSession = "session"
	// kindEnded: the session's client ended it.
	kindEnded = "ended"
	// kindResource: a resource was updated.
	kindResource = "resource"
	// kindTaskCancelled: a client cancelled the task (whose id is in
	// Session), which may run on any replica.
	kindTaskCancelled = "task-cancelled"
	// kindAck: a replica acted on the message of Nonce.
	kindAck = "ack"
	// kindResave: the store holds no record of the session, which a
	// replica may hold all the same (a store restarted empty): the
	// replica that holds it saves it again.
	kindResave = "resave"
	// kindToolsChanged: the session's list of tools changed (its
	// workflow moved), for the replica whose go-sdk session streams to
	// its client.
	kindToolsChanged = "tools-changed"
)

// message is what travels on the bus, as JSON.
type message struct {
	From    string          `json:"from"` // the replica that published it, which ignores it
	Kind    string          `json:"kind"`
	Session string          `json:"session,omitempty"`
	URI     string          `json:"uri,omitempty"`
	Body    json.RawMessage `json:"body,omitempty"`
	// Nonce names a message whose publisher waits for every replica to
	// acknowledge it.
	Nonce string `json:"nonce,omitempty"`
}

// timeout bounds one publish, and one delivery of what arrived.
const timeout = 2 * time.Second
