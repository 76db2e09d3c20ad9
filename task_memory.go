package vurb

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// DefaultMaxTasks is how many live tasks NewMemoryTaskStore keeps when not
// told otherwise.
const DefaultMaxTasks = 10_000

// MemoryTaskStore is the TaskStore of one process: a map under a lock,
// bounded twice. Every task goes after its TTL (Get and Update no longer
// find it; the space is reclaimed when the store fills up), and the store
// never holds more than its maximum: Create refuses a task beyond it with
// ErrTaskStoreFull rather than drop a live one early, which the extension
// forbids. Behind a load balancer, use a store every replica shares.
type MemoryTaskStore struct {
	max int
	now func() time.Time

	mu    sync.Mutex
	tasks map[string]*TaskRecord
}

// NewMemoryTaskStore returns a store that keeps at most maxTasks live tasks
// (DefaultMaxTasks when maxTasks <= 0).
func NewMemoryTaskStore(maxTasks int) *MemoryTaskStore {
	if maxTasks <= 0 {
		maxTasks = DefaultMaxTasks
	}
	return &MemoryTaskStore{max: maxTasks, now: time.Now, tasks: map[string]*TaskRecord{}}
}

// Create adds t, first dropping expired tasks when the store is full.
func (s *MemoryTaskStore) Create(_ context.Context, t *TaskRecord) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, dup := s.tasks[t.ID]; dup {
		return fmt.Errorf("vurb: task %q exists already", t.ID)
	}
	if len(s.tasks) >= s.max {
		now := s.now()
		for id, old := range s.tasks {
			if now.After(old.Expires()) {
				delete(s.tasks, id)
			}
		}
		if len(s.tasks) >= s.max {
			return ErrTaskStoreFull
		}
	}
	s.tasks[t.ID] = t.Clone()
	return nil
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
	c.ID = id
	s.tasks[id] = c
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
		delete(s.tasks, id)
		return nil, fmt.Errorf("%w: task %q has expired", ErrTaskNotFound, id)
	}
	if !ok {
		return nil, fmt.Errorf("%w: %q", ErrTaskNotFound, id)
	}
	return t, nil
}
