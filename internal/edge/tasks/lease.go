package tasks

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/store"
)

// A task's record says "working" for as long as a replica runs its call.
// A replica that dies, is terminated without a drain, or is cut off from
// the store never says otherwise, so the record carries a lease
// (store.Task.LeaseUntil) that the replica running the task renews every
// third of TaskConfig.Lease; whoever reads a working task past its lease
// records it as failed, saying why, so every replica reads the same. And
// a replica whose store fails as a run ends keeps the outcome in memory
// and writes it again, backing off, until the store takes it.

// renewLeases renews the lease of every task this process runs, until
// ctx is done.
func (s *taskServer) renewLeases(ctx context.Context) {
	tick := time.NewTicker(s.lease / 3)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		for _, id := range s.running.ids() {
			_, err := s.store.Update(ctx, id, func(t *store.Task) error {
				if t.Status != store.TaskWorking {
					return errTaskUnchanged
				}
				t.LeaseUntil = s.now().UTC().Add(s.lease)
				return nil
			})
			if errors.Is(err, store.ErrTaskNotFound) {
				err = s.running.Restore(id, nil) // the store lost it: restarted empty
			}
			if err != nil && !errors.Is(err, errTaskUnchanged) && !errors.Is(err, store.ErrTaskNotFound) {
				s.logger.Warn("vurb: renewing a running task's lease failed; other replicas may read it as failed", "task", id, "err", err)
			}
		}
	}
}

// runningTask is a task running in this process: how to stop it, and its
// record as the run began, to save again should the store lose it.
type runningTask struct {
	cancel context.CancelFunc
	rec    *store.Task
	s      *taskServer
}

// Restore saves again the record of the task id, which runs in this
// process and which the store no longer holds (a store restarted without
// persistence), as working with a fresh lease, or as fn (when not nil)
// ends it. It returns store.ErrTaskNotFound when id does not run here or has
// expired, and the store's error when it fails; a record another replica
// saved first is left as it is.
func (r *runningTasks) Restore(id string, fn func(*store.Task) error) error {
	r.mu.Lock()
	run, ok := r.m[id]
	r.mu.Unlock()
	if !ok {
		return fmt.Errorf("%w: %q", store.ErrTaskNotFound, id)
	}
	s := run.s
	now := s.now().UTC()
	if !now.Before(run.rec.Expires()) {
		return fmt.Errorf("%w: %q has expired", store.ErrTaskNotFound, id)
	}
	t := run.rec.Clone()
	t.Status, t.StatusMessage, t.UpdatedAt, t.LeaseUntil = store.TaskWorking, "", now, now.Add(s.lease)
	t.InputRequests, t.Result, t.Error = nil, nil, nil
	if fn != nil {
		if err := fn(t); err != nil {
			return err
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), restoreTimeout)
	defer cancel()
	err := s.store.Create(ctx, t)
	if err == nil {
		s.logger.Info("vurb: the task store had lost a running task's record: saved again", "task", id, "status", string(t.Status))
		return nil
	}
	if _, gerr := s.store.Get(ctx, id); gerr == nil {
		return nil // another replica, or another path here, saved it first
	}
	return err
}

// RestoreAll saves again the record of every task running in this
// process that the store no longer holds.
func (r *runningTasks) RestoreAll() {
	for _, id := range r.ids() {
		_ = r.Restore(id, nil) // a record the store still holds is left as it is
	}
}

// ids returns the tasks running in this process.
func (r *runningTasks) ids() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]string, 0, len(r.m))
	for id := range r.m {
		out = append(out, id)
	}
	return out
}

// leaseLost is what a working task past its lease reads as.
const leaseLost = "the replica running it stopped (a crash, a kill, or it lost the task store) before it finished; start the call again"

// expireLease records t, read from the store, as failed if it is working
// past its lease, and returns it as it now reads.
func (s *taskServer) expireLease(ctx context.Context, t *store.Task) *store.Task {
	if t.Status != store.TaskWorking || t.LeaseUntil.IsZero() || s.now().Before(t.LeaseUntil) {
		return t
	}
	failed, err := s.store.Update(ctx, t.ID, func(t *store.Task) error {
		if t.Status != store.TaskWorking || t.LeaseUntil.IsZero() || s.now().Before(t.LeaseUntil) {
			return errTaskUnchanged // renewed or ended meanwhile
		}
		t.Status, t.StatusMessage, t.UpdatedAt, t.LeaseUntil = store.TaskFailed, leaseLost, s.now().UTC(), time.Time{}
		t.Error = rpcErrorJSON(&jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the task " + leaseLost})
		return nil
	})
	if err == nil && failed != nil {
		s.logger.Warn("vurb: a task's lease ran out: recorded as failed", "task", t.ID, "tool", t.Tool)
		return failed
	}
	if errors.Is(err, errTaskUnchanged) {
		if again, gerr := s.store.Get(ctx, t.ID); gerr == nil {
			return again
		}
	}
	return t
}

// settleUntilStored records how the run of task id ended, writing it
// again while the store fails (backing off from 100 ms to 5 s), for at
// most s.retryFor and never past expires.
func (s *taskServer) settleUntilStored(id string, res *mcp.CallToolResult, err error, expires time.Time) {
	deadline := s.now().Add(s.retryFor)
	if expires.Before(deadline) {
		deadline = expires
	}
	wait := 100 * time.Millisecond
	for tries := 1; ; tries++ {
		serr := s.settle(id, res, err)
		if serr == nil {
			if tries > 1 {
				s.logger.Info("vurb: a task's outcome is recorded after the store failed", "task", id, "tries", tries)
			}
			return
		}
		if tries == 1 {
			s.logger.Warn("vurb: recording a task's outcome failed; kept in memory and retried", "task", id, "err", serr)
		}
		if !s.now().Add(wait).Before(deadline) {
			s.logger.Error("vurb: a task's outcome was never recorded: the store failed until the retries' bound", "task", id, "tries", tries, "err", serr)
			return
		}
		time.Sleep(wait)
		wait = min(2*wait, 5*time.Second)
	}
}
