package vurb

import (
	"time"

	"github.com/vurb-go/vurb/internal/engine"
)

// Limits protect what a handler reaches and the model's context window.
// Each is declared at the app (an option, for every action), a tool, a
// group or an action:
//
//   - RateLimit: token buckets (PerCaller, AllCallers). A limit counts the
//     calls of the scope that declares it: on a tool, the calls of all its
//     actions together; a call must pass every limit from the app down to
//     its action.
//   - MaxConcurrent: a cap on one action's handlers running at once, with
//     a bounded wait for a slot. The innermost level that sets it wins;
//     each action has slots of its own.
//   - MaxOutput: a cap on the text of one result, which is cut and says
//     so. The innermost level that sets it wins (default DefaultMaxOutput).
//
// A call refused by a rate limit or the concurrency cap gets an error
// result that says when to retry (Messages.RateLimited, AtCapacity), and
// the observer sees it end OutcomeLimited. Limits count only calls whose
// arguments are valid, and a call takes its concurrency slot before its
// rate tokens, so one refused as busy spends none.

// limitSet is what one level declares; zero fields defer to the enclosing
// level.
type limitSet struct {
	rates      []RateLimit
	concurrent int // < 0: no cap, whatever an enclosing level says
	wait       time.Duration
	maxOutput  int // < 0: no cap
}

// lowerLimits resolves the action's limits across its levels.
func (d *ActionDef) lowerLimits() engine.Limits {
	t, g, app := d.tool, d.group, d.tool.app
	levels := []*limitSet{&d.limits, nil, &t.limits, &app.cfg.callLimits}
	if g != nil {
		levels[1] = &g.limits
	}
	var l engine.Limits
	// From the app down, each level's rate limits named by its scope.
	scopes := []string{d.canonicalKey(), "", t.name + ".*", "*"}
	if g != nil {
		scopes[1] = t.name + "." + g.name + ".*"
	}
	for i := len(levels) - 1; i >= 0; i-- {
		if levels[i] == nil {
			continue
		}
		for j, r := range levels[i].rates {
			l.Rates = append(l.Rates, r.lower(scopes[i], j))
		}
	}
	for _, s := range levels {
		if s != nil && s.concurrent != 0 {
			l.Concurrent, l.Wait = max(s.concurrent, 0), s.wait
			break
		}
	}
	for _, s := range levels {
		if s != nil && s.maxOutput != 0 {
			l.MaxOutput = max(s.maxOutput, 0)
			break
		}
	}
	return l
}
