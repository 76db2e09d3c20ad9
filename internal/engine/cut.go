package engine

import "sync"

// A shutdown's grace ends with the calls still running cut: their contexts
// cancelled, so that a handler that honours its context stops, and each
// answered at once with a text saying the server cut it, whichever
// transport holds it (a handshake-era session's call lives on the
// session's connection, whose Close would wait for it). The runtime keeps
// the calls running in a sharded set for that: adding and removing a call
// costs a short lock on one of 16 shards.

const callShards = 16

// runningCalls are the calls whose handler may still run, by request id.
type runningCalls struct {
	shards [callShards]callShard
}

type callShard struct {
	mu    sync.Mutex
	calls map[uint64]*callContext
}

func (r *runningCalls) add(id uint64, cc *callContext) {
	s := &r.shards[id%callShards]
	s.mu.Lock()
	if s.calls == nil {
		s.calls = map[uint64]*callContext{}
	}
	s.calls[id] = cc
	s.mu.Unlock()
}

func (r *runningCalls) remove(id uint64) {
	s := &r.shards[id%callShards]
	s.mu.Lock()
	delete(s.calls, id)
	s.mu.Unlock()
}

// cut cancels every call running now, marking each as cut.
func (r *runningCalls) cut() {
	for i := range r.shards {
		s := &r.shards[i]
		s.mu.Lock()
		calls := make([]*callContext, 0, len(s.calls))
		for _, cc := range s.calls {
			calls = append(calls, cc)
		}
		s.mu.Unlock()
		for _, cc := range calls {
			cc.cutAt.Store(true)
			cc.end()
			if cc.watching.Load() { // a watched call is answered now, as a worker's would be
				go cc.fire()
			}
		}
	}
}
