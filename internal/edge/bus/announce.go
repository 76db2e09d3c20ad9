package bus

import "context"

// Announce tells the other replicas that the session id received msg
// (a JSON-RPC message), for their go-sdk sessions of it.
func (h *Hub) Announce(ctx context.Context, id string, msg []byte) {
	h.publish(ctx, message{Kind: kindSession, Session: id, Body: msg})
}

// AnnounceAndWait is Announce, returning once the others hold msg.
func (h *Hub) AnnounceAndWait(ctx context.Context, id string, msg []byte) {
	h.publishAndWait(ctx, message{Kind: kindSession, Session: id, Body: msg})
}

// asksPerSecond bounds the resave requests a replica publishes: a client
// that sends made-up session ids costs the bus at most that many
// messages a second, and is answered 404 past it.
const asksPerSecond = 20

// Ask asks the other replicas to save again the record of the session
// id, which the store does not hold, and reports once they acted on it
// whether it was asked at all: a replica that holds the session (the
// store restarted empty, and its probe has not run yet) saves it before
// it acknowledges.
func (h *Hub) Ask(ctx context.Context, id string) bool {
	if !h.asks.Allow() {
		return false
	}
	h.publishAndWait(ctx, message{Kind: kindResave, Session: id})
	return true
}

// AskTask asks the other replicas whether one of them runs the task id
// (Ask): the tasks front's seam to the bus.
func (h *Hub) AskTask(ctx context.Context, id string) bool { return h.Ask(ctx, id) }

// CancelTask tells the other replicas that the task id was cancelled,
// and waits for them to act on it.
func (h *Hub) CancelTask(ctx context.Context, id string) {
	h.publishAndWait(ctx, message{Kind: kindTaskCancelled, Session: id})
}

// Ended tells the other replicas that the client ended the session id,
// and waits for them to forget it.
func (h *Hub) Ended(ctx context.Context, id string) {
	h.publishAndWait(ctx, message{Kind: kindEnded, Session: id})
}

// Resource tells the other replicas that the resource uri was updated,
// for their subscribers.
func (h *Hub) Resource(ctx context.Context, uri string) {
	h.publish(ctx, message{Kind: kindResource, URI: uri})
}

// ToolsChanged tells the other replicas that the session id's list of
// tools changed, for the one whose go-sdk session streams to its client.
func (h *Hub) ToolsChanged(ctx context.Context, id string) {
	h.publish(ctx, message{Kind: kindToolsChanged, Session: id})
}
