package engine

import (
	"context"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultAtCapacity is the AtCapacity message of a runtime that sets none
// (%d: the cap, %s: how long the call waited for a slot).
const DefaultAtCapacity = "this action's limit of concurrent calls (%d) is reached and none ended within %s; retry in a few seconds"

// slots cap an action's handlers running at once. A slot is taken before
// the handler starts and given back when it returns, even after its call
// answered without it (a handler that ignores its context keeps its
// slot), so the cap holds for the work actually running. The channel is
// the semaphore: its waiting senders queue in order, and a slot given back
// goes to the longest waiting.
type slots struct {
	ch   chan struct{}
	wait time.Duration
}

func newSlots(n int, wait time.Duration) *slots {
	return &slots{ch: make(chan struct{}, n), wait: max(wait, 0)}
}

// take takes a slot, waiting up to s.wait for one; it fails with ctx's
// error when the caller gives up first.
func (s *slots) take(ctx context.Context) (bool, error) {
	select {
	case s.ch <- struct{}{}:
		return true, nil
	default:
	}
	if s.wait == 0 {
		return false, nil
	}
	t := time.NewTimer(s.wait)
	defer t.Stop()
	select {
	case s.ch <- struct{}{}:
		return true, nil
	case <-t.C:
		return false, nil
	case <-ctx.Done():
		return false, ctx.Err()
	}
}

// give gives a slot back.
func (s *slots) give() { <-s.ch }

// atCapacity is the answer to a call that found no slot in time.
func (ep *Endpoint) atCapacity() *mcp.CallToolResult {
	msg := ep.rt.Messages.AtCapacity
	if msg == "" {
		msg = DefaultAtCapacity
	}
	s := ep.limits.slots
	return ErrorResult(ep.prefix + fmt.Sprintf(msg, cap(s.ch), s.wait))
}
