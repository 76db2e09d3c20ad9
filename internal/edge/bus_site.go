package edge

import (
	"context"

	"github.com/vurb-go/vurb/internal/edge/bus"
)

// replicaHub returns the app's end of the replicas' bus, nil without a
// bus; the first call subscribes, for the life of the process.
func (a *Site) replicaHub() *bus.Hub {
	if a.Bus == nil {
		return nil
	}
	a.hubOnce.Do(func() {
		a.hub = bus.New(a.Bus, a.Plan.Runtime().Sealer, busSite{a}, a.Logger)
	})
	return a.hub
}

// busSite is the app as the hub sees it (bus.Local): what a message from
// another replica makes this one do, to its subscribers, its tasks and
// the sessions its fronts hold.
type busSite struct{ a *Site }

// NotifyLocal tells the subscribers of this process's servers that uri
// was updated.
func (s busSite) NotifyLocal(ctx context.Context, uri string) error { return s.a.notifyLocal(ctx, uri) }

// InterruptTask interrupts the task id, when this replica runs it.
func (s busSite) InterruptTask(id string) {
	if t := s.a.Tasks; t != nil {
		t.Running.Interrupt(id)
	}
}

// RestoreTask saves again the record of the task id, when this replica
// runs it.
func (s busSite) RestoreTask(id string) {
	if t := s.a.Tasks; t != nil {
		_ = t.Running.Restore(id, nil)
	}
}

// ForgetSession drops the session id from every front's table.
func (s busSite) ForgetSession(id string) {
	for _, f := range s.a.busFronts.live() {
		f.table.Forget(id)
	}
}

// ResaveSession saves again the record of the session id, from the
// fronts that hold it.
func (s busSite) ResaveSession(ctx context.Context, id string) {
	for _, f := range s.a.busFronts.live() {
		f.table.Resave(ctx, id)
	}
}

// ReplaySession passes msg to every front's go-sdk session of id.
func (s busSite) ReplaySession(ctx context.Context, id string, msg []byte) {
	for _, f := range s.a.busFronts.live() {
		f.replay(ctx, id, msg)
	}
}

// ToolsChanged tells this process's go-sdk session id that its list of
// tools changed.
func (s busSite) ToolsChanged(id string) { s.a.toolsChangedLocal(nil, id) }
