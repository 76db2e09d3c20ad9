package bus

import (
	"context"
	"fmt"
)

// deliver acts on a message another replica published.
func (h *Hub) deliver(data []byte) {
	defer func() {
		if p := recover(); p != nil {
			h.logger.Error("vurb: acting on a bus message panicked", "panic", fmt.Sprint(p))
		}
	}()
	m, err := h.seals.open(data)
	if err == nil {
		err = m.check()
	}
	if err != nil {
		n := h.dropped.Add(1)
		h.logger.Warn("vurb: dropped a bus message that no replica of this app could have sent", "why", err.Error(), "dropped", n)
		return
	}
	if m.Kind == kindAck {
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
		defer h.publish(context.Background(), message{Kind: kindAck, Nonce: m.Nonce})
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	switch m.Kind {
	case kindResource:
		if err := h.local.NotifyLocal(ctx, m.URI); err != nil {
			h.logger.Debug("vurb: a resource update from another replica was not delivered to all", "uri", m.URI, "err", err)
		}
	case kindTaskCancelled:
		h.local.InterruptTask(m.Session)
	case kindEnded:
		h.local.ForgetSession(m.Session)
	case kindResave:
		h.local.ResaveSession(ctx, m.Session)
		h.local.RestoreTask(m.Session) // a task this replica runs, if the id is one
	case kindSession:
		h.local.ReplaySession(ctx, m.Session, m.Body)
	case kindToolsChanged:
		h.local.ToolsChanged(m.Session)
	}
}
