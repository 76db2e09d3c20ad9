package bus

import (
	"context"
	"crypto/rand"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/vurb-go/vurb/internal/engine"
	"github.com/vurb-go/vurb/store"
	"golang.org/x/time/rate"
)

// Hub is one app's end of the bus: it publishes what this replica learns
// and passes what the others learned to the replica's own side (Local).
type Hub struct {
	bus    store.Bus
	id     string // this replica's, random: its own messages come back
	logger *slog.Logger
	local  Local

	seals   *sealer       // seals what this replica publishes, opens what it receives
	dropped atomic.Uint64 // messages received that could not be verified, or asked what no replica may

	mu      sync.Mutex
	waiting map[string]chan struct{} // by nonce: announcements waiting for acknowledgements

	asks *rate.Limiter // bounds the resave requests one replica publishes (see Ask)
}

// New returns the hub of an app over b, sealing under keys, and
// subscribes it to b for the life of the process.
func New(b store.Bus, keys *engine.Sealer, local Local, logger *slog.Logger) *Hub {
	h := &Hub{bus: b, id: rand.Text(), logger: logger, local: local,
		seals: newSealer(keys.Box(purpose)), waiting: map[string]chan struct{}{},
		asks: rate.NewLimiter(asksPerSecond, asksPerSecond)}
	b.Subscribe(context.Background(), h.deliver)
	return h
}

// publish sends m to the other replicas, and returns how many
// subscriptions received it, -1 when it did not go. A bus that fails is
// logged: what it carries is lost, and this replica goes on serving.
func (h *Hub) publish(ctx context.Context, m message) int {
	m.From = h.id
	data, err := h.seals.seal(&m)
	if err != nil {
		h.logger.Error("vurb: encoding a bus message failed", "kind", m.Kind, "err", err)
		return -1
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), timeout)
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
func (h *Hub) publishAndWait(ctx context.Context, m message) {
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
