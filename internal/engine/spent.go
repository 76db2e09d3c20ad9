package engine

import (
	"errors"
	"sync"
)

// spentStates remembers what was used once until it expires, by key: the
// request states a Sealer opened, the proofs Replays saw. It holds at
// most max keys; when share is not 0 and it is half full, an owner that
// holds share keys is refused more, so that no caller fills it for the
// others.
type spentStates struct {
	mu     sync.Mutex
	max    int
	share  int
	at     map[string]int64 // key → issued (unix seconds)
	owners map[string]int   // owner → keys held, under a share
	order  []spentState     // order[head:] in the order spent, for forgetting the oldest
	head   int
	// floor is the latest issue time of a key forgotten before it
	// expired: a key issued no later is refused, since it may be one.
	floor int64
}

type spentState struct {
	key, owner string
	expires    int64
}

// errShareFull: the owner holds its share of the set.
var errShareFull = errors.New("the caller holds its share of the spent keys")

func newSpent(max, share int) spentStates {
	return spentStates{max: max, share: share, at: map[string]int64{}, owners: map[string]int{}}
}

// spend marks key (issued at issued, useless after expires) spent at now
// for owner, or refuses it: ErrStateExpired when it is no later than one
// forgotten, ErrStateSpent when it was spent, errShareFull when owner
// holds its share.
func (s *spentStates) spend(key, owner string, issued, expires, now int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if issued <= s.floor {
		return ErrStateExpired
	}
	if _, ok := s.at[key]; ok {
		return ErrStateSpent
	}
	for s.head < len(s.order) && s.order[s.head].expires < now { // expired: can no longer be used
		s.forget(s.order[s.head])
		s.head++
	}
	if s.share > 0 && s.owners[owner] >= s.share && len(s.order)-s.head >= s.max/2 {
		return errShareFull // under pressure only: one busy caller may use the room no one else needs
	}
	for len(s.order)-s.head >= s.max {
		old := s.order[s.head]
		s.floor = max(s.floor, s.at[old.key])
		s.forget(old)
		s.head++
	}
	if s.head > len(s.order)/2 { // reuse the space of what was forgotten
		s.order = append(s.order[:0], s.order[s.head:]...)
		s.head = 0
	}
	s.at[key] = issued
	s.order = append(s.order, spentState{key: key, owner: owner, expires: expires})
	if s.share > 0 {
		s.owners[owner]++
	}
	return nil
}

func (s *spentStates) forget(e spentState) {
	delete(s.at, e.key)
	if s.share == 0 {
		return
	}
	if s.owners[e.owner]--; s.owners[e.owner] <= 0 {
		delete(s.owners, e.owner)
	}
}
