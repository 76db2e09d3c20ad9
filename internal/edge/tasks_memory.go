package edge

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"
)

// DefaultMaxTasks is vurb.DefaultMaxTasks; see its documentation there.
const DefaultMaxTasks = 10_000

// DefaultMaxTaskBytes is vurb.DefaultMaxTaskBytes; see its documentation there.
const DefaultMaxTaskBytes = 256 << 20

// DefaultTaskCallerShare is vurb.DefaultTaskCallerShare; see its documentation there.
const DefaultTaskCallerShare = 16

// MemoryTaskStore is vurb.MemoryTaskStore; see its documentation there.
type MemoryTaskStore struct {
	max, perCaller           int
	maxBytes, perCallerBytes int64
	now                      func() time.Time

	mu      sync.Mutex
	tasks   map[string]*TaskRecord
	bytes   int64
	callers map[string]*callerTasks
}

// callerTasks is what one caller holds in a MemoryTaskStore: done lists
// its finished tasks, oldest first, which make room for its new work when
// its share is full (finished work never keeps a caller from running
// more; only the caller's own results go early).
type callerTasks struct {
	tasks int
	bytes int64
	done  []string
}

// MemoryTaskStoreOption is vurb.MemoryTaskStoreOption; see its documentation there.
type MemoryTaskStoreOption func(*MemoryTaskStore)

// TaskStoreMaxBytes is vurb.WithTaskStoreMaxBytes; see its documentation there.
func TaskStoreMaxBytes(n int64) MemoryTaskStoreOption {
	return func(s *MemoryTaskStore) {
		if n > 0 {
			s.maxBytes = n
		}
	}
}

// TaskStorePerCaller is vurb.WithTaskStorePerCaller; see its documentation there.
func TaskStorePerCaller(tasks int, bytes int64) MemoryTaskStoreOption {
	return func(s *MemoryTaskStore) {
		if tasks > 0 {
			s.perCaller = tasks
		}
		if bytes > 0 {
			s.perCallerBytes = bytes
		}
	}
}

// NewMemoryTaskStore is vurb.NewMemoryTaskStore; see its documentation there.
func NewMemoryTaskStore(maxTasks int, opts ...MemoryTaskStoreOption) *MemoryTaskStore {
	if maxTasks <= 0 {
		maxTasks = DefaultMaxTasks
	}
	s := &MemoryTaskStore{max: maxTasks, maxBytes: DefaultMaxTaskBytes, now: time.Now,
		tasks: map[string]*TaskRecord{}, callers: map[string]*callerTasks{}}
	for _, o := range opts {
		o(s)
	}
	tasks, bytes := TaskCallerShare(s.max, s.maxBytes)
	if s.perCaller == 0 {
		s.perCaller = tasks
	}
	if s.perCallerBytes == 0 {
		s.perCallerBytes = bytes
	}
	return s
}

// TaskCallerShare is vurb.TaskCallerShare; see its documentation there.
func TaskCallerShare(maxTasks int, maxBytes int64) (tasks int, bytes int64) {
	// A small store is not cut in sixteen.
	return max(maxTasks/DefaultTaskCallerShare, min(maxTasks, 16)), max(maxBytes/DefaultTaskCallerShare, min(maxBytes, 1<<20))
}

// Create adds t, first dropping expired tasks when there is no room.
func (s *MemoryTaskStore) Create(_ context.Context, t *TaskRecord) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, dup := s.tasks[t.ID]; dup {
		return fmt.Errorf("vurb: task %q exists already", t.ID)
	}
	size := recordSize(t)
	if !s.room(t.Caller, 1, size, "") {
		return s.full(t.Caller, size)
	}
	s.tasks[t.ID] = t.Clone()
	s.account(t.Caller, 1, size)
	if t.Status.Terminal() {
		s.finished(t.Caller, t.ID)
	}
	return nil
}

// room makes room for caller to add tasks and bytes: it drops expired
// tasks, then caller's own finished tasks, oldest first (never keep), and
// reports whether they fit.
func (s *MemoryTaskStore) room(caller string, tasks int, bytes int64, keep string) bool {
	if s.fits(caller, tasks, bytes) {
		return true
	}
	s.reclaim()
	for !s.fits(caller, tasks, bytes) {
		c := s.callers[caller]
		if c == nil || !s.dropOldestDone(c, keep) {
			return false
		}
	}
	return true
}

// dropOldestDone drops c's oldest finished task other than keep, and
// reports whether there was one.
func (s *MemoryTaskStore) dropOldestDone(c *callerTasks, keep string) bool {
	for i, id := range c.done {
		if id == keep {
			continue
		}
		c.done = slices.Delete(c.done, i, i+1)
		if t, ok := s.tasks[id]; ok {
			s.drop(id, t)
		}
		return true
	}
	return false
}

// finished notes that caller's task id has finished.
func (s *MemoryTaskStore) finished(caller, id string) {
	if c := s.callers[caller]; c != nil {
		c.done = append(c.done, id)
	}
}

// fits reports whether caller may add tasks and bytes.
func (s *MemoryTaskStore) fits(caller string, tasks int, bytes int64) bool {
	c := s.callers[caller]
	if c == nil {
		c = &callerTasks{}
	}
	return len(s.tasks)+tasks <= s.max && s.bytes+bytes <= s.maxBytes &&
		c.tasks+tasks <= s.perCaller && c.bytes+bytes <= s.perCallerBytes
}

// full is the refusal of bytes more for caller, saying which bound it met.
func (s *MemoryTaskStore) full(caller string, bytes int64) error {
	if c := s.callers[caller]; c != nil && (c.tasks >= s.perCaller || c.bytes+bytes > s.perCallerBytes) {
		return fmt.Errorf("%w: this caller runs %d unfinished tasks (%d bytes held), its share of the store; wait until one finishes", ErrTaskStoreFull, c.tasks-len(c.done), c.bytes)
	}
	return ErrTaskStoreFull
}

// account adds tasks and bytes to caller's and the store's totals.
func (s *MemoryTaskStore) account(caller string, tasks int, bytes int64) {
	c := s.callers[caller]
	if c == nil {
		c = &callerTasks{}
		s.callers[caller] = c
	}
	c.tasks += tasks
	c.bytes += bytes
	s.bytes += bytes
	if c.tasks == 0 {
		delete(s.callers, caller)
	}
}

// reclaim drops every expired task.
func (s *MemoryTaskStore) reclaim() {
	now := s.now()
	for id, old := range s.tasks {
		if now.After(old.Expires()) {
			s.drop(id, old)
		}
	}
}

// drop removes the task id.
func (s *MemoryTaskStore) drop(id string, t *TaskRecord) {
	delete(s.tasks, id)
	if c := s.callers[t.Caller]; c != nil && t.Status.Terminal() {
		if i := slices.Index(c.done, id); i >= 0 {
			c.done = slices.Delete(c.done, i, i+1)
		}
	}
	s.account(t.Caller, -1, -recordSize(t))
}

// recordSize is what a record weighs in a store's byte bounds: what the
// client sent and what the call returned, plus a fixed part for the rest.
func recordSize(t *TaskRecord) int64 {
	n := 512 + len(t.ID) + len(t.Owner) + len(t.Caller) + len(t.StatusMessage) + len(t.Tool) + len(t.Version) +
		len(t.Arguments) + len(t.Capabilities) + len(t.RequestState) + len(t.Result) + len(t.Error)
	for k, v := range t.InputRequests {
		n += len(k) + len(v)
	}
	for k, v := range t.Answers {
		n += len(k) + len(v)
	}
	return int64(n)
}

// Get returns a copy of the task id.
func (s *MemoryTaskStore) Get(_ context.Context, id string) (*TaskRecord, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, err := s.live(id)
	if err != nil {
		return nil, err
	}
	return t.Clone(), nil
}

// Update applies fn to a copy of the task id and keeps it when fn returns
// nil.
func (s *MemoryTaskStore) Update(_ context.Context, id string, fn func(*TaskRecord) error) (*TaskRecord, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, err := s.live(id)
	if err != nil {
		return nil, err
	}
	c := t.Clone()
	if err := fn(c); err != nil {
		return nil, err
	}
	c.ID, c.Caller = id, t.Caller
	grown := recordSize(c) - recordSize(t)
	if grown > 0 && !s.room(t.Caller, 0, grown, id) {
		return nil, s.full(t.Caller, grown)
	}
	if _, ok := s.tasks[id]; !ok {
		// Making room dropped it (it had expired meanwhile).
		return nil, fmt.Errorf("%w: %q", ErrTaskNotFound, id)
	}
	s.tasks[id] = c
	s.account(t.Caller, 0, grown)
	if c.Status.Terminal() && !t.Status.Terminal() {
		s.finished(t.Caller, id)
	}
	return c.Clone(), nil
}

// Len returns how many tasks the store holds, expired ones not yet
// reclaimed included.
func (s *MemoryTaskStore) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.tasks)
}

// live returns the task id unless it is missing or expired; an expired
// one is dropped.
func (s *MemoryTaskStore) live(id string) (*TaskRecord, error) {
	t, ok := s.tasks[id]
	if ok && s.now().After(t.Expires()) {
		s.drop(id, t)
		return nil, fmt.Errorf("%w: task %q has expired", ErrTaskNotFound, id)
	}
	if !ok {
		return nil, fmt.Errorf("%w: %q", ErrTaskNotFound, id)
	}
	return t, nil
}
