package vurbtest

import (
	"encoding/json"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Progress waits until the client has received at least n progress
// notifications (notifications/progress), and returns all it has received,
// in arrival order. n = 0 returns at once. The server sends them only for
// calls that carried a progress token (ProgressToken). Notifications are
// handled apart from responses, so some may arrive after the call that
// caused them returns: wait for them here, never with a sleep. It fails
// the test when fewer than n arrive within the Timeout.
func (c *Client) Progress(n int) []*mcp.ProgressNotificationParams {
	c.t.Helper()
	return wait(c, &c.progress, n, "progress notifications")
}

// Logs waits until the client has received at least n log messages
// (notifications/message) and returns them all, as Progress does. The
// server sends only those at or above the LogLevel the client asked for;
// none without one.
func (c *Client) Logs(n int) []*mcp.LoggingMessageParams {
	c.t.Helper()
	return wait(c, &c.logs, n, "log messages")
}

// ResourceUpdates waits until the client has received at least n
// notifications/resources/updated and returns their URIs, as Progress does.
// The server sends them for resources the client subscribed to
// (c.Session().Subscribe).
func (c *Client) ResourceUpdates(n int) []string {
	c.t.Helper()
	return wait(c, &c.updates, n, "resource updates")
}

func wait[T any](c *Client, r *recorder[T], n int, what string) []T {
	c.t.Helper()
	got, ok := r.wait(n, c.cfg.timeout)
	if !ok {
		data, _ := json.Marshal(got)
		c.t.Fatalf("vurbtest: waited %v for %d %s, got %d: %s", c.cfg.timeout, n, what, len(got), data)
	}
	return got
}

// recorder keeps what a notification handler receives, for tests to wait
// on.
type recorder[T any] struct {
	mu      sync.Mutex
	items   []T
	changed chan struct{} // closed and replaced on every add
}

func (r *recorder[T]) add(v T) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.items = append(r.items, v)
	if r.changed != nil {
		close(r.changed)
		r.changed = nil
	}
}

// wait returns a copy of the items once there are at least n, or with
// false after timeout.
func (r *recorder[T]) wait(n int, timeout time.Duration) ([]T, bool) {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		r.mu.Lock()
		items := append([]T(nil), r.items...)
		if len(items) >= n {
			r.mu.Unlock()
			return items, true
		}
		if r.changed == nil {
			r.changed = make(chan struct{})
		}
		changed := r.changed
		r.mu.Unlock()
		select {
		case <-changed:
		case <-deadline.C:
			return items, false
		}
	}
}
