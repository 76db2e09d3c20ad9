package bench

import (
	"errors"
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// caller is one load-generating client of a served contender: call sends
// one tools/call and checks that the answer is "golang"; close ends its
// session and connection.
type caller interface {
	call() error
	close() error
}

func closeCallers(callers []caller) error {
	var errs []error
	for _, c := range callers {
		errs = append(errs, c.close())
	}
	return errors.Join(errs...)
}

// budget says when the clients of a burst stop: after a number of calls
// shared between them (a benchmark's b.N), or at a deadline (a round of
// the table). A failed call stops every client.
type budget struct {
	left     atomic.Int64
	span     time.Duration // when timed: from the burst's start
	deadline time.Time
	failed   atomic.Bool
}

func callBudget(n int) *budget {
	b := new(budget)
	b.left.Store(int64(n))
	return b
}

func timeBudget(d time.Duration) *budget { return &budget{span: d} }

func (b *budget) take(now time.Time) bool {
	if b.failed.Load() {
		return false
	}
	if !b.deadline.IsZero() {
		return now.Before(b.deadline)
	}
	return b.left.Add(-1) >= 0
}

// burst is what the clients saw of a run of calls: how many, how long
// from the first send to the last answer, and each call's latency, sorted.
type burst struct {
	calls int
	wall  time.Duration
	lat   []time.Duration
}

// runBurst has every caller call, one call at a time each, until the
// budget is spent. expect is a guess of the calls per client, to size the
// latency records before the clock starts.
func runBurst(callers []caller, b *budget, expect int) (burst, error) {
	lats := make([][]time.Duration, len(callers))
	for i := range lats {
		lats[i] = make([]time.Duration, 0, expect)
	}
	errs := make([]error, len(callers))
	var wg sync.WaitGroup
	start := time.Now()
	if b.span > 0 {
		b.deadline = start.Add(b.span)
	}
	for i, c := range callers {
		wg.Go(func() {
			// One clock read per call: a call starts when the previous ends.
			now := time.Now()
			for b.take(now) {
				if err := c.call(); err != nil {
					errs[i] = err
					b.failed.Store(true)
					return
				}
				end := time.Now()
				lats[i] = append(lats[i], end.Sub(now))
				now = end
			}
		})
	}
	wg.Wait()
	r := burst{wall: time.Since(start), lat: slices.Concat(lats...)}
	r.calls = len(r.lat)
	slices.Sort(r.lat)
	return r, errors.Join(errs...)
}

// percentile is the p-th percentile (nearest rank) of sorted latencies.
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(math.Ceil(p/100*float64(len(sorted)))) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}

// servedResult is one measured burst of one contender: throughput and
// latency as the clients saw them, and the server's CPU, bytes and
// allocations per call.
type servedResult struct {
	callsPerSec, p50Micros, p99Micros float64
	cpuMicros, bytes, allocs          float64
	calls                             int
	// clientCPUMicros is the load generator's own CPU per call (this whole
	// process), to show how much of the two cores it left the server.
	clientCPUMicros float64
}

// measureServed runs a burst against p between two snapshots of its
// totals.
func measureServed(p *servedProc, callers []caller, b *budget, expect int) (servedResult, error) {
	before, err := p.stats()
	if err != nil {
		return servedResult{}, err
	}
	self := selfCPU()
	r, err := runBurst(callers, b, expect)
	if err != nil {
		return servedResult{}, err
	}
	self = selfCPU() - self
	after, err := p.stats()
	if err != nil {
		return servedResult{}, err
	}
	res, err := newServedResult(r, before, after)
	res.clientCPUMicros = float64(self) / 1e3 / float64(max(1, r.calls))
	return res, err
}

// newServedResult is what a burst measured, per call, with the server's
// snapshots taken before and after it.
func newServedResult(r burst, before, after serverStats) (servedResult, error) {
	if r.calls == 0 {
		return servedResult{}, errors.New("no call in the burst")
	}
	res := servedResult{
		callsPerSec: float64(r.calls) / r.wall.Seconds(),
		p50Micros:   float64(percentile(r.lat, 50)) / 1e3,
		p99Micros:   float64(percentile(r.lat, 99)) / 1e3,
		calls:       r.calls,
	}
	res.cpuMicros, res.bytes, res.allocs = perCall(before, after, r.calls)
	return res, nil
}
