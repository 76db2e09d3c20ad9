package store

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"sync"
	"time"
)

// DefaultMaxInstances is how many live workflow instances
// NewMemoryWorkflows keeps when not told otherwise.
const DefaultMaxInstances = 10_000

// MemoryWorkflows is the Workflows of one process: a map under a lock,
// bounded in instances, in all and per owner (a sixteenth, as
// CallerShare gives tasks), so that one caller filling it refuses nobody
// but itself. Expired instances are dropped when room is needed.
type MemoryWorkflows struct {
	max, perOwner int
	now           func() time.Time

	mu     sync.Mutex
	all    map[string]*Instance
	owners map[string]int
}

// NewMemoryWorkflows returns a store that keeps at most maxInstances live
// instances (DefaultMaxInstances when maxInstances <= 0).
func NewMemoryWorkflows(maxInstances int) *MemoryWorkflows {
	if maxInstances <= 0 {
		maxInstances = DefaultMaxInstances
	}
	share, _ := CallerShare(maxInstances, 0)
	return &MemoryWorkflows{max: maxInstances, perOwner: share, now: time.Now,
		all: map[string]*Instance{}, owners: map[string]int{}}
}

// Create adds in, first dropping expired instances when there is no room.
func (s *MemoryWorkflows) Create(_ context.Context, in *Instance) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, live := s.live(in.ID); live {
		return fmt.Errorf("%w: %q", ErrInstanceExists, in.ID)
	}
	if !s.fits(in.Owner) {
		s.reclaim() // every instance, under the lock: only when a bound is met
		if !s.fits(in.Owner) {
			if s.owners[in.Owner] >= s.perOwner {
				return fmt.Errorf("%w: this caller holds %d live instances, its share of the store; finish or let some expire", ErrWorkflowsFull, s.owners[in.Owner])
			}
			return ErrWorkflowsFull
		}
	}
	s.all[in.ID] = in.Clone()
	s.owners[in.Owner]++
	return nil
}

func (s *MemoryWorkflows) fits(owner string) bool {
	return len(s.all) < s.max && s.owners[owner] < s.perOwner
}

// reclaim drops every expired instance.
func (s *MemoryWorkflows) reclaim() {
	now := s.now()
	for id, in := range s.all {
		if !now.Before(in.Expires) {
			s.drop(id, in)
		}
	}
}

func (s *MemoryWorkflows) drop(id string, in *Instance) {
	delete(s.all, id)
	if s.owners[in.Owner]--; s.owners[in.Owner] <= 0 {
		delete(s.owners, in.Owner)
	}
}

// live returns instance id when it has not expired.
func (s *MemoryWorkflows) live(id string) (*Instance, bool) {
	in, ok := s.all[id]
	if ok && !s.now().Before(in.Expires) {
		s.drop(id, in)
		return nil, false
	}
	return in, ok
}

// Get returns a copy of the live instance id.
func (s *MemoryWorkflows) Get(_ context.Context, id string) (*Instance, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	in, ok := s.live(id)
	if !ok {
		return nil, ErrNoInstance
	}
	return in.Clone(), nil
}

// Claim reserves a move under the lock: of two racing claims from one
// state, one finds the other's.
func (s *MemoryWorkflows) Claim(_ context.Context, id string, moves map[string]string, claim string, lease time.Duration) (*Instance, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	in, ok := s.live(id)
	if !ok {
		return nil, ErrNoInstance
	}
	was := in.Clone()
	now := s.now()
	to, ok := moves[in.State]
	if !ok || in.Claimed(now) {
		return was, ErrOutOfState
	}
	in.Claim, in.ClaimTo, in.ClaimUntil = claim, to, now.Add(lease)
	return was, nil
}

// Commit makes the claimed move.
func (s *MemoryWorkflows) Commit(_ context.Context, id, claim string, data map[string]json.RawMessage, expires time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	in, ok := s.live(id)
	if !ok {
		return ErrNoInstance
	}
	if in.Claim != claim || claim == "" || !in.Claimed(s.now()) {
		return ErrOutOfState
	}
	in.State, in.Claim, in.ClaimTo, in.ClaimUntil = in.ClaimTo, "", "", time.Time{}
	if len(data) > 0 {
		if in.Data == nil {
			in.Data = map[string]json.RawMessage{}
		}
		maps.Copy(in.Data, cloneData(data))
	}
	in.Expires = expires
	return nil
}

// Release drops the claim.
func (s *MemoryWorkflows) Release(_ context.Context, id, claim string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if in, ok := s.live(id); ok && in.Claim == claim {
		in.Claim, in.ClaimTo, in.ClaimUntil = "", "", time.Time{}
	}
	return nil
}

// Len returns the number of instances the store holds, expired or not.
func (s *MemoryWorkflows) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.all)
}
