package engine

import (
	"container/heap"
	"errors"
	"sync"
)

// spentStates remembers what was used once until it expires, by key: the
// request states a Sealer opened, the proofs Replays saw. It holds at
// most max keys; when share is not 0 and it is half full, an owner that
// holds share keys is refused more, so that no caller fills it for the
// others.
//
// Every key of one set lives as long after it was issued as any other
// (a state's maximum age, a proof's window), so the keys in order of
// issue are the keys in order of expiry: the set is a heap in that
// order. Past max, the earliest issued is forgotten, and floor rises to
// its issue time: a key issued no later is refused, since it may be the
// one forgotten. Forgetting the earliest, never the first spent, keeps a
// key issued ahead of the clock (a proof's iat is the client's) from
// raising floor past the keys of everyone else.
type spentStates struct {
	mu     sync.Mutex
	max    int
	share  int
	at     map[string]int64 // key → issued (unix seconds)
	owners map[string]int   // owner → keys held, under a share
	order  spentHeap        // by issue, the earliest first
	floor  int64
}

type spentState struct {
	key, owner      string
	issued, expires int64
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
	for len(s.order) > 0 && s.order[0].expires < now { // expired: can no longer be used
		s.forget(heap.Pop(&s.order).(spentState))
	}
	if s.share > 0 && s.owners[owner] >= s.share && len(s.order) >= s.max/2 {
		return errShareFull // under pressure only: one busy caller may use the room no one else needs
	}
	for len(s.order) >= s.max {
		old := heap.Pop(&s.order).(spentState)
		s.floor = max(s.floor, old.issued)
		s.forget(old)
	}
	if issued <= s.floor {
		return nil // earlier than the key forgotten: fresh, and refused as it, never kept
	}
	s.at[key] = issued
	heap.Push(&s.order, spentState{key: key, owner: owner, issued: issued, expires: expires})
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

// spentHeap is container/heap's interface over the keys, by expiry.
type spentHeap []spentState

func (h spentHeap) Len() int           { return len(h) }
func (h spentHeap) Less(i, j int) bool { return h[i].expires < h[j].expires }
func (h spentHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *spentHeap) Push(x any)        { *h = append(*h, x.(spentState)) }
func (h *spentHeap) Pop() any {
	old := *h
	e := old[len(old)-1]
	*h = old[:len(old)-1]
	return e
}
