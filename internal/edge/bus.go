package edge

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/store"
	"golang.org/x/time/rate"
)

// Replicas of one server behind a balancer without affinity each hold
// some of a session's pieces: the POST stream of a call that asked the
// client a question, the GET stream that waits for notifications, the
// go-sdk session a subscription was made on. What one replica learns that
// the others must act on travels on a Bus: the answer to a question
// another replica asked, a session's new log level or subscription, a
// session ended, a resource updated. A single process has no bus and
// needs none.

// The kinds of bus messages.
const (
	// busSession: a message one replica received for a session, which
	// every replica holding the session passes to its go-sdk session.
	busSession = "session"
	// busEnded: the session's client ended it.
	busEnded = "ended"
	// busResource: a resource was updated.
	busResource = "resource"
	// busTaskCancelled: a client cancelled the task (whose id is in
	// Session), which may run on any replica.
	busTaskCancelled = "task-cancelled"
	// busAck: a replica acted on the message of Nonce.
	busAck = "ack"
	// busResave: the store holds no record of the session, which a
	// replica may hold all the same (a store restarted empty): the
	// replica that holds it saves it again.
	busResave = "resave"
)

// busMessage is what travels on the bus, as JSON.
type busMessage struct {
	From    string          `json:"from"` // the replica that published it, which ignores it
	Kind    string          `json:"kind"`
	Session string          `json:"session,omitempty"`
	URI     string          `json:"uri,omitempty"`
	Body    json.RawMessage `json:"body,omitempty"`
	// Nonce names a message whose publisher waits for every replica to
	// acknowledge it.
	Nonce string `json:"nonce,omitempty"`
}

// busTimeout bounds one publish, and one delivery of what arrived.
const busTimeout = 2 * time.Second

// hub is one app's end of the bus: it publishes what this replica learns
// and passes what the others learned to the fronts that hold sessions.
type hub struct {
	bus    store.Bus
	id     string // this replica's, random: its own messages come back
	logger *slog.Logger
	site   *Site

	fronts weakSet[front] // the fronts that hold sessions: a handler may be dropped

	sealer  *busSealer    // seals what this replica publishes, opens what it receives
	dropped atomic.Uint64 // messages received that could not be verified, or asked what no replica may

	mu      sync.Mutex
	waiting map[string]chan struct{} // by nonce: announcements waiting for acknowledgements

	asks *rate.Limiter // bounds the resave requests one replica publishes (see ask)
}

// replicaHub returns the app's hub, nil without a bus; the first call
// subscribes, for the life of the process.
func (a *Site) replicaHub() *hub {
	if a.Bus == nil {
		return nil
	}
	a.hubOnce.Do(func() {
		a.hub = &hub{bus: a.Bus, id: rand.Text(), logger: a.Logger, site: a,
			sealer: newBusSealer(a.Plan.Runtime().Sealer.Box(busPurpose)), waiting: map[string]chan struct{}{},
			asks: rate.NewLimiter(asksPerSecond, asksPerSecond)}
		a.Bus.Subscribe(context.Background(), a.hub.deliver)
	})
	return a.hub
}

// publish sends m to the other replicas, and returns how many
// subscriptions received it, -1 when it did not go. A bus that fails is
// logged: what it carries is lost, and this replica goes on serving.
func (h *hub) publish(ctx context.Context, m busMessage) int {
	m.From = h.id
	data, err := h.sealer.seal(&m)
	if err != nil {
		h.logger.Error("vurb: encoding a bus message failed", "kind", m.Kind, "err", err)
		return -1
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), busTimeout)
	defer cancel()
	n, err := h.bus.Publish(ctx, data)
	if err != nil {
		h.logger.Warn("vurb: publishing to the other replicas failed; they miss this", "kind", m.Kind,
			"session", m.Session, "err", err)
		return -1
	}
	return n
}

// ackWait bounds how long an announcement waits for the other replicas
// to acknowledge it.
const ackWait = 250 * time.Millisecond

// publishAndWait publishes m and returns once every other replica has
// acted on it (or after ackWait): a change announced before a request is
// answered is then made everywhere before the client's next request,
// wherever that lands.
func (h *hub) publishAndWait(ctx context.Context, m busMessage) {
	m.Nonce = rand.Text()
	acks := make(chan struct{}, 256)
	h.mu.Lock()
	h.waiting[m.Nonce] = acks
	h.mu.Unlock()
	defer func() {
		h.mu.Lock()
		delete(h.waiting, m.Nonce)
		h.mu.Unlock()
	}()
	n := h.publish(ctx, m)
	t := time.NewTimer(ackWait)
	defer t.Stop()
	for range n - 1 { // every subscription but this replica's own
		select {
		case <-acks:
		case <-t.C:
			h.logger.Debug("vurb: not every replica acknowledged a change in time", "session", m.Session)
			return
		case <-ctx.Done():
			return
		}
	}
}

// deliver acts on a message another replica published.
func (h *hub) deliver(data []byte) {
	defer func() {
		if p := recover(); p != nil {
			h.logger.Error("vurb: acting on a bus message panicked", "panic", fmt.Sprint(p))
		}
	}()
	m, err := h.sealer.open(data)
	if err == nil {
		err = m.check()
	}
	if err != nil {
		n := h.dropped.Add(1)
		h.logger.Warn("vurb: dropped a bus message that no replica of this app could have sent", "why", err.Error(), "dropped", n)
		return
	}
	if m.Kind == busAck {
		h.mu.Lock()
		acks := h.waiting[m.Nonce]
		h.mu.Unlock()
		if acks != nil {
			select {
			case acks <- struct{}{}:
			default:
			}
		}
		return
	}
	if m.From == h.id {
		return
	}
	if m.Nonce != "" { // its publisher waits until every replica acted on it
		defer h.publish(context.Background(), busMessage{Kind: busAck, Nonce: m.Nonce})
	}
	ctx, cancel := context.WithTimeout(context.Background(), busTimeout)
	defer cancel()
	switch m.Kind {
	case busResource:
		if err := h.site.notifyLocal(ctx, m.URI); err != nil {
			h.logger.Debug("vurb: a resource update from another replica was not delivered to all", "uri", m.URI, "err", err)
		}
	case busTaskCancelled:
		if t := h.site.Tasks; t != nil {
			t.Running.Interrupt(m.Session)
		}
	case busEnded:
		for _, f := range h.fronts.live() {
			f.table.forget(m.Session)
		}
	case busResave:
		for _, f := range h.fronts.live() {
			f.table.resave(ctx, m.Session)
		}
		if t := h.site.Tasks; t != nil {
			_ = t.Running.Restore(m.Session, nil) // a task this replica runs, if the id is one
		}
	case busSession:
		for _, f := range h.fronts.live() {
			f.replay(ctx, m.Session, m.Body)
		}
	}
}

// announce tells the other replicas that the session id received msg
// (a JSON-RPC message), for their go-sdk sessions of it.
func (h *hub) announce(ctx context.Context, id string, msg []byte) {
	h.publish(ctx, busMessage{Kind: busSession, Session: id, Body: msg})
}

// announceAndWait is announce, returning once the others hold msg.
func (h *hub) announceAndWait(ctx context.Context, id string, msg []byte) {
	h.publishAndWait(ctx, busMessage{Kind: busSession, Session: id, Body: msg})
}

// replayMetaKey marks a request one replica replays on another's behalf,
// so that the replica replaying it does not announce it again.
const replayMetaKey = "vurb/replayed"

// replayed reports whether meta marks a replayed request.
func replayed(meta mcp.Meta) bool {
	_, ok := meta[replayMetaKey]
	return ok
}

// asksPerSecond bounds the resave requests a replica publishes: a client
// that sends made-up session ids costs the bus at most that many
// messages a second, and is answered 404 past it.
const asksPerSecond = 20

// ask asks the other replicas to save again the record of the session
// id, which the store does not hold, and reports once they acted on it
// whether it was asked at all: a replica that holds the session (the
// store restarted empty, and its probe has not run yet) saves it before
// it acknowledges.
func (h *hub) ask(ctx context.Context, id string) bool {
	if !h.asks.Allow() {
		return false
	}
	h.publishAndWait(ctx, busMessage{Kind: busResave, Session: id})
	return true
}

// AskTask asks the other replicas whether one of them runs the task id
// (ask): the tasks front's seam to the bus.
func (h *hub) AskTask(ctx context.Context, id string) bool { return h.ask(ctx, id) }

// CancelTask tells the other replicas that the task id was cancelled,
// and waits for them to act on it.
func (h *hub) CancelTask(ctx context.Context, id string) {
	h.publishAndWait(ctx, busMessage{Kind: busTaskCancelled, Session: id})
}
