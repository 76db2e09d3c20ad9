package redisstate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/vurb-go/vurb"
)

// MaxUpdateAttempts is how many times Update reads a task and tries to
// write it before giving up, when other writes to the same task keep
// coming in between. Each attempt after a conflict waits a random pause
// that grows with the attempts (at most 10 ms); the store's timeout bounds
// them all.
const MaxUpdateAttempts = 64

// ErrUpdateConflict is what Update returns, wrapped, when other writes to
// the same task came in between its read and its write MaxUpdateAttempts
// times in a row. Nothing was written: the call may be retried.
var ErrUpdateConflict = errors.New("redisstate: the task kept changing under the update")

// TaskStore is a vurb.TaskStore kept in Redis, one JSON value per task:
// every replica that shares its Redis and prefix reads and changes the
// same tasks. It keeps vurb.MemoryTaskStore's guarantees over all
// replicas: bounded in tasks and bytes, in all and per caller, and a task
// is gone once it expires. See the package's documentation for how. It is
// safe for concurrent use; get one from Store.Tasks.
type TaskStore struct {
	client redis.UniversalClient
	config
}

var _ vurb.TaskStore = (*TaskStore)(nil)

func newTaskStore(client redis.UniversalClient, c config) *TaskStore {
	return &TaskStore{client: client, config: c}
}

// key returns the key named by suffix under the store's hash tag.
func (s *TaskStore) key(suffix string) string { return s.prefix + "{tasks}:" + suffix }

// keys are a script's KEYS for the task id.
func (s *TaskStore) keys(id string) []string {
	return []string{s.key("t:" + id), s.key("idx"), s.key("meta"), s.key("callers"), s.key("cbytes"), s.key("bytes")}
}

// limits are the bounds, as the scripts' last four ARGV.
func (s *TaskStore) limits() []any {
	return []any{s.maxTasks, s.maxBytes, s.perCaller, s.perCallerBytes}
}

// Create adds t, whose ID is new, in one round trip: once it returns nil,
// Get finds t on every replica. It returns an error wrapping
// vurb.ErrTaskStoreFull when t would pass a bound of the store or of its
// caller's share, after reclaiming the space of expired tasks.
func (s *TaskStore) Create(ctx context.Context, t *vurb.TaskRecord) error {
	data, err := json.Marshal(t)
	if err != nil {
		return fmt.Errorf("redisstate: create task %q: %w", t.ID, err)
	}
	ctx, cancel := s.bound(ctx)
	defer cancel()
	args := append([]any{t.ID, data, len(data), t.Caller, t.Expires().UnixMilli()}, s.limits()...)
	res, err := createTask.Run(ctx, s.client, s.keys(t.ID), args...).Slice()
	if err != nil {
		return s.failed(fmt.Sprintf("create task %q", t.ID), err)
	}
	switch answer(res) {
	case "ok":
		return nil
	case "dup":
		return fmt.Errorf("redisstate: task %q exists already", t.ID)
	case "full":
		return full(res)
	}
	return fmt.Errorf("redisstate: create task %q: the script answered %v", t.ID, res)
}

// Get returns the task id as last written by any replica, or an error
// wrapping vurb.ErrTaskNotFound when there is none or it has expired.
func (s *TaskStore) Get(ctx context.Context, id string) (*vurb.TaskRecord, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	data, err := s.client.Get(ctx, s.key("t:"+id)).Bytes()
	if err != nil {
		return nil, s.readError(id, err)
	}
	return decodeTask(id, data)
}

// Update changes the task id atomically across replicas: fn gets a copy
// to modify and returns nil to keep the change, or an error to drop it,
// which Update returns as it is. The change is written only if no other
// write reached the task since it was read; otherwise Update reads the
// task again and calls fn again on a fresh copy, up to MaxUpdateAttempts
// times (then an error wrapping ErrUpdateConflict). As in
// vurb.MemoryTaskStore, fn cannot change the task's ID or Caller, and a
// change that grows the task past a bound is refused with an error
// wrapping vurb.ErrTaskStoreFull. Update returns the task as stored, or an
// error wrapping vurb.ErrTaskNotFound.
func (s *TaskStore) Update(ctx context.Context, id string, fn func(*vurb.TaskRecord) error) (*vurb.TaskRecord, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	for attempt := range MaxUpdateAttempts {
		if attempt > 0 {
			if err := backoff(ctx, attempt); err != nil {
				return nil, s.failed(fmt.Sprintf("update task %q after %d conflicting writes", id, attempt), err)
			}
		}
		t, done, err := s.tryUpdate(ctx, id, fn)
		if done || err != nil {
			return t, err
		}
	}
	return nil, fmt.Errorf("%w: task %q, %d attempts", ErrUpdateConflict, id, MaxUpdateAttempts)
}

// tryUpdate is one attempt of Update: done is false when another write
// came in between the read and the write.
func (s *TaskStore) tryUpdate(ctx context.Context, id string, fn func(*vurb.TaskRecord) error) (_ *vurb.TaskRecord, done bool, _ error) {
	old, rev, err := s.read(ctx, id)
	if err != nil {
		return nil, false, err
	}
	t := old.Clone()
	if err := fn(t); err != nil {
		return nil, false, err
	}
	t.ID, t.Caller = id, old.Caller
	data, err := json.Marshal(t)
	if err != nil {
		return nil, false, fmt.Errorf("redisstate: update task %q: %w", id, err)
	}
	args := append([]any{id, data, len(data), rev, t.Expires().UnixMilli()}, s.limits()...)
	res, err := updateTask.Run(ctx, s.client, s.keys(id), args...).Slice()
	if err != nil {
		return nil, false, s.failed(fmt.Sprintf("update task %q", id), err)
	}
	switch answer(res) {
	case "ok":
		return t, true, nil
	case "conflict":
		return nil, false, nil
	case "gone":
		return nil, false, fmt.Errorf("%w: %q", vurb.ErrTaskNotFound, id)
	case "full":
		return nil, false, full(res)
	}
	return nil, false, fmt.Errorf("redisstate: update task %q: the script answered %v", id, res)
}

// read returns the task id and its revision, read together in one
// transaction (one round trip).
func (s *TaskStore) read(ctx context.Context, id string) (*vurb.TaskRecord, string, error) {
	var rec *redis.StringCmd
	var rev *redis.StringCmd
	_, err := s.client.TxPipelined(ctx, func(p redis.Pipeliner) error {
		rec = p.Get(ctx, s.key("t:"+id))
		rev = p.HGet(ctx, s.key("meta"), id)
		return nil
	})
	if err != nil {
		return nil, "", s.readError(id, err)
	}
	t, err := decodeTask(id, []byte(rec.Val()))
	if err != nil {
		return nil, "", err
	}
	return t, revision(rev.Val()), nil
}

// readError is the error of a read of the task id that failed with err.
func (s *TaskStore) readError(id string, err error) error {
	if errors.Is(err, redis.Nil) {
		return fmt.Errorf("%w: %q", vurb.ErrTaskNotFound, id)
	}
	return s.failed(fmt.Sprintf("read task %q", id), err)
}

// decodeTask decodes the task id, which has expired if its Expires time
// is past by this replica's clock (Redis drops it by its own).
func decodeTask(id string, data []byte) (*vurb.TaskRecord, error) {
	var t vurb.TaskRecord
	if err := json.Unmarshal(data, &t); err != nil {
		return nil, fmt.Errorf("redisstate: task %q: the stored record does not decode: %w", id, err)
	}
	if time.Now().After(t.Expires()) {
		return nil, fmt.Errorf("%w: task %q has expired", vurb.ErrTaskNotFound, id)
	}
	return &t, nil
}

// revision is the revision in a line of the meta hash,
// "<revision>:<bytes>:<caller>".
func revision(meta string) string {
	rev, _, _ := strings.Cut(meta, ":")
	return rev
}

// answer is the first word of a script's answer.
func answer(res []any) string {
	if len(res) == 0 {
		return ""
	}
	s, _ := res[0].(string)
	return s
}

// full is the refusal a script answered {"full", share, tasks, bytes}
// with, saying which bound the task met, as vurb.MemoryTaskStore does.
func full(res []any) error {
	if len(res) == 4 && res[1] == int64(1) {
		return fmt.Errorf("%w: this caller holds %d tasks (%d bytes), its share of the store; wait until they expire", vurb.ErrTaskStoreFull, res[2], res[3])
	}
	return vurb.ErrTaskStoreFull
}

// backoff waits a random pause before the attempt-th try, growing with
// the attempts up to 10 ms, or until ctx ends.
func backoff(ctx context.Context, attempt int) error {
	ceiling := min(100*time.Microsecond<<min(attempt, 7), 10*time.Millisecond)
	t := time.NewTimer(rand.N(ceiling) + 1)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
