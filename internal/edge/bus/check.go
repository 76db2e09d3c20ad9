package bus

import (
	"encoding/json"
	"errors"
)

// check reports whether m asks only what a replica may ask of another: a
// known kind with what it names, and, for a session's message, only a
// message that answers or changes what the go-sdk's session holds (an
// answer to a request the server sent, the notifications relayed, a log
// level, a subscription), never a call. Sealing proves a replica sent m;
// this bounds what even a replica's message can make another do.
func (m *message) check() error {
	switch m.Kind {
	case kindAck:
		if m.Nonce == "" {
			return errMalformed
		}
	case kindEnded, kindTaskCancelled, kindResave, kindToolsChanged:
		if m.Session == "" {
			return errMalformed
		}
	case kindResource:
		if m.URI == "" {
			return errMalformed
		}
	case kindSession:
		if m.Session == "" || !replayable(m.Body) {
			return errNotReplayable
		}
	default:
		return errMalformed
	}
	return nil
}

var (
	errMalformed     = errors.New("not a message of a kind a replica sends")
	errNotReplayable = errors.New("a session message no replica relays (only answers, relayed notifications, log levels and subscriptions are)")
)

// replayable reports whether body is a JSON-RPC message one replica
// passes to another's session: what relayed selects at the front (an
// answer, or a notification that the session is initialized, a request
// cancelled, the roots changed), or what the session table tells
// (replayRequest of a log level or a subscription).
func replayable(body []byte) bool {
	var env struct {
		Method *string          `json:"method"`
		ID     json.RawMessage  `json:"id"`
		Result json.RawMessage  `json:"result"`
		Error  json.RawMessage  `json:"error"`
		Params *json.RawMessage `json:"params"`
	}
	if json.Unmarshal(body, &env) != nil {
		return false
	}
	if env.Method == nil { // an answer
		return len(env.ID) > 0 && (env.Result != nil || env.Error != nil)
	}
	switch *env.Method {
	case "notifications/initialized", "notifications/cancelled", "notifications/roots/list_changed":
		return env.ID == nil
	case "logging/setLevel", "resources/subscribe", "resources/unsubscribe":
		return string(env.ID) == `"vurb-replay"`
	}
	return false
}
