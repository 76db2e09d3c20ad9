// Package limit is the implementation of the call limits a vurb app
// declares (the root's limits.go and rate.go): it resolves an action's
// limits across its levels into the engine's Limits, names the buckets of
// per-caller rate limits, and keeps token buckets in memory (store.MemoryRates,
// the default rate store). The engine applies the result to each call.
//
// It stands apart from the root package, which it never imports, so that
// the root holds only what a user declares and configures; the compiler
// keeps that boundary, as it does for internal/engine.
package limit

import (
	"context"
	"fmt"
	"time"

	vstore "github.com/vurb-go/vurb/store"

	"github.com/vurb-go/vurb/internal/engine"
)

// Set is what one level (the app, a tool, a group, an action) declares;
// zero fields defer to the enclosing level.
type Set struct {
	Rates      []Rule
	Concurrent int // < 0: no cap, whatever an enclosing level says
	Wait       time.Duration
	MaxOutput  int // < 0: no cap
}

// Rule is a rate limit as declared: its token bucket, and how a caller's
// bucket is named.
type Rule struct {
	Rate engine.Rate
	// Key names the caller's bucket; nil: one bucket for all callers.
	Key func(ctx context.Context, o engine.Origin) string
}

// NewRule is a rule of calls per per, with bursts of as many, whose
// buckets key names; what names the declaring function in the panic that
// a rate which never refills gets.
func NewRule(what string, calls int, per time.Duration, key func(context.Context, engine.Origin) string) Rule {
	if calls <= 0 || per <= 0 {
		panic(fmt.Sprintf("vurb: %s(%d, %s): give calls above 0 per a duration above 0", what, calls, per))
	}
	return Rule{Rate: engine.Rate{Calls: calls, Per: per, Burst: calls}, Key: key}
}

// WithBurst returns the rule with bursts of n calls; n must be 1 or more.
func (r Rule) WithBurst(n int) Rule {
	if n < 1 {
		panic(fmt.Sprintf("vurb: RateLimit.Burst(%d): a burst is 1 call or more", n))
	}
	r.Rate.Burst = n
	return r
}

// lower is the rule as the engine applies it: its buckets are named by
// the scope that declared it and its place there, the same in every
// replica of the app.
func (r Rule) lower(scope string, i int) engine.RateRule {
	if r.Rate.Calls == 0 {
		panic(fmt.Sprintf("vurb: %s: a zero RateLimit; make one with vurb.PerCaller or vurb.AllCallers", scope))
	}
	return engine.RateRule{Name: fmt.Sprintf("%s#%d", scope, i), Rate: r.Rate, Key: r.Key}
}

// Level is one level of an action's limits: what it declares (nil: the
// action has no such level) and the scope that names the buckets of its
// rate limits ("*" for the app, "tool.*", "tool.group.*", the action's
// key).
type Level struct {
	Set   *Set
	Scope string
}

// Resolve resolves an action's limits across its levels, given from the
// action out to the app: a call must pass every rate limit, the app's
// first; the innermost level that sets a concurrency or an output cap
// wins, and a negative one is no cap.
func Resolve(levels ...Level) engine.Limits {
	var l engine.Limits
	for i := len(levels) - 1; i >= 0; i-- {
		if s := levels[i].Set; s != nil {
			for j, r := range s.Rates {
				l.Rates = append(l.Rates, r.lower(levels[i].Scope, j))
			}
		}
	}
	for _, lv := range levels {
		if s := lv.Set; s != nil && s.Concurrent != 0 {
			l.Concurrent, l.Wait = max(s.Concurrent, 0), s.Wait
			break
		}
	}
	for _, lv := range levels {
		if s := lv.Set; s != nil && s.MaxOutput != 0 {
			l.MaxOutput = max(s.MaxOutput, 0)
			break
		}
	}
	return l
}

// CheckConcurrent panics, naming where, at a concurrency cap of 0 or a
// negative wait: a definition mistake, caught at the line that made it.
func CheckConcurrent(where string, n int, wait time.Duration) {
	if n == 0 || wait < 0 {
		panic(fmt.Sprintf("vurb: %s(%d, %s): give a cap above 0 (or below 0 for none) and a wait of 0 or more", where, n, wait))
	}
}

// CheckMaxOutput panics, naming where, at an output cap of 0.
func CheckMaxOutput(where string, n int) {
	if n == 0 {
		panic(fmt.Sprintf("vurb: %s: MaxOutput(0): give a cap in bytes, or -1 for none", where))
	}
}

// Apply sets the handler bounds of rt and its rate store: a bound of 0 or
// less leaves rt's (none), and a nil store is a store.MemoryRates of rt's own,
// so that two apps never share buckets.
func Apply(rt *engine.Runtime, maxRunning int, store engine.RateStore) {
	if maxRunning > 0 {
		rt.MaxRunning = int64(maxRunning)
	}
	if store == nil {
		store = vstore.NewMemoryRates(0)
	}
	rt.RateStore = store
}
