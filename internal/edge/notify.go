package edge

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/edge/fault"
	"github.com/vurb-go/vurb/internal/engine"
)

// The go-sdk sends a broadcast notification (a resource updated, a list
// changed) to its subscribers one after the other, each write waiting on
// the subscriber: one client that stopped reading its event stream held
// a NotifyResourceUpdated for 29.6 s, and every other subscriber with it.
// vurb queues each subscriber's broadcasts instead, up to a bound, and a
// goroutine of its own, alive only while the queue holds something,
// delivers them in order. A subscriber whose queue is full misses the
// notifications that do not fit, and the log says so; nobody waits on it.

// DefaultNotifyBuffer is how many broadcast notifications wait for one
// subscriber before the next ones are dropped (vurb.WithNotifyBuffer).
const DefaultNotifyBuffer = 64

// notifyTimeout bounds the delivery of one queued notification.
const notifyTimeout = 10 * time.Second

// queuedMethods are the broadcasts that are queued rather than sent on
// the notifier's goroutine. Notifications sent during a request
// (progress, log messages) stay in line with its response.
var queuedMethods = map[string]bool{
	"notifications/resources/updated":      true,
	"notifications/resources/list_changed": true,
	"notifications/tools/list_changed":     true,
	"notifications/prompts/list_changed":   true,
}

// notifier holds the queues of the subscribers that have notifications
// pending; a subscriber with none has no queue and no goroutine.
type notifier struct {
	size   int
	logger *slog.Logger
	rt     *engine.Runtime // a panic is logged as panicked logs it

	mu     sync.Mutex
	queues map[mcp.Session]*notifyQueue
}

type notifyQueue struct {
	pending []note
	dropped int
}

// note is one notification waiting for its subscriber.
type note struct {
	next   mcp.MethodHandler
	ctx    context.Context
	method string
	req    mcp.Request
}

func newNotifier(size int, rt *engine.Runtime) *notifier {
	if size <= 0 {
		size = DefaultNotifyBuffer
	}
	return &notifier{size: size, logger: rt.Logger, rt: rt, queues: map[mcp.Session]*notifyQueue{}}
}

// middleware is the sending middleware that queues broadcasts.
func (n *notifier) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if !queuedMethods[method] || req.GetSession() == nil {
			return next(ctx, method, req)
		}
		n.enqueue(note{next: next, ctx: context.WithoutCancel(ctx), method: method, req: req})
		return nil, nil
	}
}

func (n *notifier) enqueue(nt note) {
	s := nt.req.GetSession()
	n.mu.Lock()
	defer n.mu.Unlock()
	q := n.queues[s]
	if q == nil {
		q = &notifyQueue{}
		n.queues[s] = q
		go n.deliver(s, q)
	}
	if len(q.pending) >= n.size {
		if q.dropped == 0 {
			n.logger.Warn("vurb: a subscriber is not reading its notifications; dropping those that do not fit its buffer",
				"session", s.ID(), "method", nt.method, "buffer", n.size)
		}
		q.dropped++
		return
	}
	q.pending = append(q.pending, nt)
}

// deliver sends q's notifications in order, and ends with the queue.
func (n *notifier) deliver(s mcp.Session, q *notifyQueue) {
	for {
		n.mu.Lock()
		if len(q.pending) == 0 {
			delete(n.queues, s)
			dropped := q.dropped
			n.mu.Unlock()
			if dropped > 0 {
				n.logger.Warn("vurb: a slow subscriber missed notifications", "session", s.ID(), "dropped", dropped)
			}
			return
		}
		nt := q.pending[0]
		q.pending[0] = note{}
		q.pending = q.pending[1:]
		n.mu.Unlock()
		n.send(s, nt)
	}
}

// send delivers one notification through the rest of the sending chain,
// containing a panic of what runs there (a sending middleware of the
// app's): this goroutine is vurb's, and a panic leaving it would end the
// process.
func (n *notifier) send(s mcp.Session, nt note) {
	ctx, cancel := context.WithTimeout(nt.ctx, notifyTimeout)
	defer cancel()
	defer func() {
		if p := recover(); p != nil {
			fault.Panicked(n.rt, nt.method, "session "+s.ID(), p) // logged: no client waits for a notification
		}
	}()
	if _, err := nt.next(ctx, nt.method, nt.req); err != nil {
		n.logger.Debug("vurb: notification not delivered", "session", s.ID(), "method", nt.method, "err", err)
	}
}
