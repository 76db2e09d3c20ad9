package redisstate

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/vurb-go/vurb/store"
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

// TaskStore is a store.Tasks kept in Redis, one JSON value per task:
// every replica that shares its Redis and prefix reads and changes the
// same tasks. It keeps the guarantees of store.MemoryTasks over all
// replicas: bounded in tasks and bytes, in all and per caller, and a task
// is gone once it expires. See the package's documentation for how. It is
// safe for concurrent use; get one from Store.Tasks.
type TaskStore struct {
	client redis.UniversalClient
	config
}

var _ store.Tasks = (*TaskStore)(nil)

func newTaskStore(client redis.UniversalClient, c config) *TaskStore {
	return &TaskStore{client: client, config: c}
}

// recordKey is the key of the task id's record: without a hash tag, so
// that records spread over a cluster's shards.
func (s *TaskStore) recordKey(id string) string { return s.prefix + "task:" + id }

// books are the keys of the bookkeeping of caller's tasks, under the
// store's hash tag, as the scripts' KEYS: one slot, so that one script
// counts the bounds.
func (s *TaskStore) books(caller string) []string {
	tag := s.prefix + "{tasks}:"
	return []string{tag + "idx", tag + "meta", tag + "callers", tag + "cbytes", tag + "bytes", tag + "done:" + caller}
}

// limits are the bounds, as the scripts' last four ARGV.
func (s *TaskStore) limits() []any {
	return []any{s.maxTasks, s.maxBytes, s.perCaller, s.perCallerBytes}
}

// Create adds t, whose ID is new, in two round trips: the bookkeeping
// counts it (one script, which refuses it past a bound), then its record
// is written. Once it returns nil, Get finds t on every replica. It
// returns an error wrapping store.ErrTasksFull when t would pass a
// bound of the store or of its caller's share, after reclaiming the space
// of expired tasks and then the caller's own finished tasks, oldest
// first, as store.MemoryTasks does. A Create that fails after the
// first step leaves t counted until it would have expired: the bounds may
// refuse a little early then, never let too much in.
func (s *TaskStore) Create(ctx context.Context, t *store.Task) error {
	data, err := json.Marshal(t)
	if err != nil {
		return fmt.Errorf("redisstate: create task %q: %w", t.ID, err)
	}
	ctx, cancel := s.bound(ctx)
	defer cancel()
	exp := t.Expires().UnixMilli()
	finished := 0
	if t.Status.Terminal() {
		finished = 1
	}
	args := append(append([]any{t.ID, len(data), t.Caller, exp}, s.limits()...), finished)
	res, err := reserveTask.Run(ctx, s.client, s.books(t.Caller), args...).Slice()
	if err != nil {
		return s.failed(fmt.Sprintf("create task %q", t.ID), err)
	}
	switch answer(res) {
	case "ok":
	case "past":
		return nil
	case "dup":
		return fmt.Errorf("redisstate: task %q exists already", t.ID)
	case "full":
		return full(res)
	default:
		return fmt.Errorf("redisstate: create task %q: the script answered %v", t.ID, res)
	}
	value := append([]byte("1:"), data...)
	pipe := s.client.Pipeline()
	set := pipe.SetArgs(ctx, s.recordKey(t.ID), value, redis.SetArgs{ExpireAt: time.UnixMilli(exp)})
	s.dropRecords(ctx, pipe, res[1:])
	if _, err := pipe.Exec(ctx); err != nil && set.Err() != nil {
		return s.failed(fmt.Sprintf("create task %q", t.ID), set.Err())
	}
	return nil
}

// dropRecords queues the deletion of the records of the tasks a script
// dropped to make room (the bookkeeping has forgotten them already). A
// deletion that fails leaves a record to expire by itself, uncounted: a
// caller's own finished task, never more than the script dropped.
func (s *TaskStore) dropRecords(ctx context.Context, pipe redis.Pipeliner, ids []any) {
	for _, id := range ids {
		if id, ok := id.(string); ok {
			pipe.Del(ctx, s.recordKey(id))
		}
	}
}

// Get returns the task id as last written by any replica, or an error
// wrapping store.ErrTaskNotFound when there is none or it has expired. It
// costs one round trip.
func (s *TaskStore) Get(ctx context.Context, id string) (*store.Task, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	t, _, err := s.read(ctx, id)
	return t, err
}

// Update changes the task id atomically across replicas: fn gets a copy
// to modify and returns nil to keep the change, or an error to drop it,
// which Update returns as it is. The change is written only if no other
// write reached the task since it was read; otherwise Update reads the
// task again and calls fn again on a fresh copy, up to MaxUpdateAttempts
// times (then an error wrapping ErrUpdateConflict). As in
// store.MemoryTasks, fn cannot change the task's ID or Caller, and a
// change that grows the task past a bound is refused with an error
// wrapping store.ErrTasksFull. Update returns the task as stored, or an
// error wrapping store.ErrTaskNotFound.
func (s *TaskStore) Update(ctx context.Context, id string, fn func(*store.Task) error) (*store.Task, error) {
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
// came in between the read and the write. It costs two round trips (read,
// write), and one more, before the write, when the task grows or lives
// longer, for the bookkeeping to count it (and maybe refuse).
func (s *TaskStore) tryUpdate(ctx context.Context, id string, fn func(*store.Task) error) (_ *store.Task, done bool, _ error) {
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
	exp := t.Expires().UnixMilli()
	if len(data) > rev.size || exp > old.Expires().UnixMilli() {
		if err := s.grow(ctx, id, old.Caller, len(data), exp); err != nil {
			return nil, false, err
		}
	}
	res, err := writeTask.Run(ctx, s.client, []string{s.recordKey(id)}, rev.n, data, exp).Text()
	if err != nil {
		return nil, false, s.failed(fmt.Sprintf("update task %q", id), err)
	}
	switch res {
	case "ok":
		if t.Status.Terminal() && !old.Status.Terminal() {
			s.finish(ctx, id, old.Caller)
		}
		return t, true, nil
	case "conflict":
		return nil, false, nil
	case "gone":
		return nil, false, fmt.Errorf("%w: %q", store.ErrTaskNotFound, id)
	}
	return nil, false, fmt.Errorf("redisstate: update task %q: the script answered %v", id, res)
}

// finish tells the bookkeeping that caller's task id has finished, once
// its record says so: from then on it makes room for the caller's new
// tasks. Should that fail, the task keeps counting as unfinished until it
// expires, which may refuse the caller a little early, never let too much
// in; the update it follows has been stored all the same.
func (s *TaskStore) finish(ctx context.Context, id, caller string) {
	_ = finishTask.Run(ctx, s.client, s.books(caller), id).Err()
}

// grow has the bookkeeping count caller's task id at size bytes, expiring
// at exp (Unix ms), before a write makes it so.
func (s *TaskStore) grow(ctx context.Context, id, caller string, size int, exp int64) error {
	args := append([]any{id, size, exp}, s.limits()...)
	res, err := growTask.Run(ctx, s.client, s.books(caller), args...).Slice()
	if err != nil {
		return s.failed(fmt.Sprintf("update task %q", id), err)
	}
	switch answer(res) {
	case "ok":
		if len(res) > 1 {
			pipe := s.client.Pipeline()
			s.dropRecords(ctx, pipe, res[1:])
			_, _ = pipe.Exec(ctx)
		}
		return nil
	case "gone":
		return fmt.Errorf("%w: %q", store.ErrTaskNotFound, id)
	case "full":
		return full(res)
	}
	return fmt.Errorf("redisstate: update task %q: the script answered %v", id, res)
}

// stored is what a record's value says beside the task: its revision,
// and the size of its JSON.
type stored struct {
	n    string
	size int
}

// read returns the task id and its revision, in one round trip.
func (s *TaskStore) read(ctx context.Context, id string) (*store.Task, stored, error) {
	value, err := s.client.Get(ctx, s.recordKey(id)).Bytes()
	if err != nil {
		return nil, stored{}, s.readError(id, err)
	}
	n, data, ok := bytes.Cut(value, []byte(":"))
	if !ok {
		return nil, stored{}, fmt.Errorf("redisstate: task %q: the stored record has no revision", id)
	}
	t, err := decodeTask(id, data)
	if err != nil {
		return nil, stored{}, err
	}
	return t, stored{n: string(n), size: len(data)}, nil
}

// readError is the error of a read of the task id that failed with err.
func (s *TaskStore) readError(id string, err error) error {
	if errors.Is(err, redis.Nil) {
		return fmt.Errorf("%w: %q", store.ErrTaskNotFound, id)
	}
	return s.failed(fmt.Sprintf("read task %q", id), err)
}

// decodeTask decodes the task id, which has expired if its Expires time
// is past by this replica's clock (Redis drops it by its own).
func decodeTask(id string, data []byte) (*store.Task, error) {
	var t store.Task
	if err := json.Unmarshal(data, &t); err != nil {
		return nil, fmt.Errorf("redisstate: task %q: the stored record does not decode: %w", id, err)
	}
	if time.Now().After(t.Expires()) {
		return nil, fmt.Errorf("%w: task %q has expired", store.ErrTaskNotFound, id)
	}
	return &t, nil
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
// with, saying which bound the task met, as store.MemoryTasks does.
func full(res []any) error {
	if len(res) == 4 && res[1] == int64(1) {
		return fmt.Errorf("%w: this caller runs %d unfinished tasks (%d bytes held), its share of the store; wait until one finishes", store.ErrTasksFull, res[2], res[3])
	}
	return store.ErrTasksFull
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
