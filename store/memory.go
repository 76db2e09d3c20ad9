package store

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"
)

// The bounds of a MemoryTasks when not told otherwise.
const (
	// DefaultMaxTasks is how many live tasks NewMemoryTasks keeps.
	DefaultMaxTasks = 10_000
	// DefaultMaxBytes is how many bytes of records (arguments, results,
	// answers, state) NewMemoryTasks keeps: 256 MiB.
	DefaultMaxBytes = 256 << 20
	// DefaultCallerShare is the part of the store's tasks and bytes one
	// caller may hold: a sixteenth (see CallerShare).
	DefaultCallerShare = 16
)

// MemoryTasks is the Tasks of one process: a map under a lock, bounded
// in tasks and in bytes, in all and per caller. Every task goes after its
// TTL (Get and Update no longer find it; the space is reclaimed when room
// is needed), and the store never holds more than its bounds: Create
// refuses a task beyond them with ErrTasksFull rather than drop a live one
// early. A caller (Task.Caller: a verified subject, else an HTTP client's
// host) holds at most its share, so that one caller filling the store
// refuses nobody but itself. Finished tasks never keep their caller from
// running more: when its share is full, its own oldest finished task
// goes, before its TTL, to make room; only unfinished tasks make it
// refuse. Behind a load balancer, use a store every replica shares.
type MemoryTasks struct {
	max, perCaller           int
	maxBytes, perCallerBytes int64
	now                      func() time.Time

	mu      sync.Mutex
	tasks   map[string]*Task
	bytes   int64
	callers map[string]*callerTasks
}

var _ Tasks = (*MemoryTasks)(nil)

// callerTasks is what one caller holds in a MemoryTasks: done lists its
// finished tasks, oldest first, which make room for its new work when its
// share is full (finished work never keeps a caller from running more;
// only the caller's own results go early).
type callerTasks struct {
	tasks int
	bytes int64
	done  []string
}

// A MemoryOption sets a bound of NewMemoryTasks.
type MemoryOption func(*MemoryTasks)

// WithMaxBytes bounds the bytes of records a MemoryTasks keeps (default
// DefaultMaxBytes). n <= 0 keeps the default.
func WithMaxBytes(n int64) MemoryOption {
	return func(s *MemoryTasks) {
		if n > 0 {
			s.maxBytes = n
		}
	}
}

// WithPerCaller bounds the tasks and the bytes one caller may hold at
// once in a MemoryTasks (default: CallerShare of the store's bounds); the
// caller's finished tasks give way to its new ones. Zero keeps a default.
func WithPerCaller(tasks int, bytes int64) MemoryOption {
	return func(s *MemoryTasks) {
		if tasks > 0 {
			s.perCaller = tasks
		}
		if bytes > 0 {
			s.perCallerBytes = bytes
		}
	}
}

// NewMemoryTasks returns a store that keeps at most maxTasks live tasks
// (DefaultMaxTasks when maxTasks <= 0), within the bounds opts set.
func NewMemoryTasks(maxTasks int, opts ...MemoryOption) *MemoryTasks {
	if maxTasks <= 0 {
		maxTasks = DefaultMaxTasks
	}
	s := &MemoryTasks{max: maxTasks, maxBytes: DefaultMaxBytes, now: time.Now,
		tasks: map[string]*Task{}, callers: map[string]*callerTasks{}}
	for _, o := range opts {
		o(s)
	}
	tasks, bytes := CallerShare(s.max, s.maxBytes)
	if s.perCaller == 0 {
		s.perCaller = tasks
	}
	if s.perCallerBytes == 0 {
		s.perCallerBytes = bytes
	}
	return s
}

// CallerShare is the default share of one caller in a task store that
// holds at most maxTasks tasks and maxBytes bytes: a sixteenth of each
// (DefaultCallerShare), but at least 16 tasks and 1 MiB where the store
// has them, so a small store is not cut in sixteen. Stores of your own
// apply it as NewMemoryTasks does.
func CallerShare(maxTasks int, maxBytes int64) (tasks int, bytes int64) {
	return max(maxTasks/DefaultCallerShare, min(maxTasks, 16)), max(maxBytes/DefaultCallerShare, min(maxBytes, 1<<20))
}

// Create adds t, first dropping expired tasks when there is no room.
func (s *MemoryTasks) Create(_ context.Context, t *Task) error {
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
func (s *MemoryTasks) room(caller string, tasks int, bytes int64, keep string) bool {
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
func (s *MemoryTasks) dropOldestDone(c *callerTasks, keep string) bool {
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
func (s *MemoryTasks) finished(caller, id string) {
	if c := s.callers[caller]; c != nil {
		c.done = append(c.done, id)
	}
}

// fits reports whether caller may add tasks and bytes.
func (s *MemoryTasks) fits(caller string, tasks int, bytes int64) bool {
	c := s.callers[caller]
	if c == nil {
		c = &callerTasks{}
	}
	return len(s.tasks)+tasks <= s.max && s.bytes+bytes <= s.maxBytes &&
		c.tasks+tasks <= s.perCaller && c.bytes+bytes <= s.perCallerBytes
}

// full is the refusal of bytes more for caller, saying which bound it met.
func (s *MemoryTasks) full(caller string, bytes int64) error {
	if c := s.callers[caller]; c != nil && (c.tasks >= s.perCaller || c.bytes+bytes > s.perCallerBytes) {
		return fmt.Errorf("%w: this caller runs %d unfinished tasks (%d bytes held), its share of the store; wait until one finishes", ErrTasksFull, c.tasks-len(c.done), c.bytes)
	}
	return ErrTasksFull
}

// account adds tasks and bytes to caller's and the store's totals.
func (s *MemoryTasks) account(caller string, tasks int, bytes int64) {
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
func (s *MemoryTasks) reclaim() {
	now := s.now()
	for id, old := range s.tasks {
		if now.After(old.Expires()) {
			s.drop(id, old)
		}
	}
}

// drop removes the task id.
func (s *MemoryTasks) drop(id string, t *Task) {
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
func recordSize(t *Task) int64 {
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
func (s *MemoryTasks) Get(_ context.Context, id string) (*Task, error) {
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
func (s *MemoryTasks) Update(_ context.Context, id string, fn func(*Task) error) (*Task, error) {
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
func (s *MemoryTasks) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.tasks)
}

// live returns the task id unless it is missing or expired; an expired
// one is dropped.
func (s *MemoryTasks) live(id string) (*Task, error) {
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
