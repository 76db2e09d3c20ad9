package vurb

import (
	"fmt"
	"time"

	"github.com/vurb-go/vurb/internal/engine"
	"github.com/vurb-go/vurb/internal/limit"
)

// Limits protect what a handler reaches and the model's context window.
// Each is declared at the app (an option, for every action), a tool, a
// group or an action:
//
//   - RateLimit: token buckets (PerCaller, AllCallers; see rate.go). A
//     limit counts the calls of the scope that declares it: on a tool, the
//     calls of all its actions together; a call must pass every limit from
//     the app down to its action.
//   - MaxConcurrent: a cap on one action's handlers running at once, with
//     a bounded wait for a slot. The innermost level that sets it wins;
//     each action has slots of its own.
//   - MaxOutput: a cap on the text of one result, which is cut and says
//     so. The innermost level that sets it wins (default 1 MiB).
//
// A call refused by a rate limit or the concurrency cap gets an error
// result that says when to retry (Messages.RateLimited, AtCapacity), and
// the observer sees it end observe.OutcomeLimited. Limits count only calls whose
// arguments are valid, and a call takes its concurrency slot before its
// rate tokens, so one refused as busy spends none. Across the app,
// WithMaxRunning bounds the handlers running at once, those past their
// deadline included. The limits are resolved and applied by
// internal/limit and internal/engine.

// limitSet is what one level declares; zero fields defer to the enclosing
// level.
type limitSet = limit.Set

// defaultMaxOutput caps the text of one result, by default: 1 MiB, about
// 250,000 tokens, more than most models can take in one turn. A larger
// result is cut there and ends with Messages.Truncated, which tells the
// model to narrow its request.
const defaultMaxOutput = 1 << 20

// defaultMaxRunning bounds the handlers an app runs at once, by default.
// A handler that ignores its context runs on after its call has answered
// with a timeout; 2,000 such calls once left 2,294 goroutines behind,
// unseen. Past the bound a call is refused at once with a "busy" error
// result that tells the model to retry.
const defaultMaxRunning = 10_000

// MaxConcurrent caps the handlers of each of the tool's actions running at
// once at n (see WithMaxConcurrent); n < 0 removes the app's cap.
func (t *Tool) MaxConcurrent(n int, wait time.Duration) *Tool {
	t.mustBeMutable()
	limit.CheckConcurrent(fmt.Sprintf("tool %q: MaxConcurrent", t.name), n, wait)
	t.limits.Concurrent, t.limits.Wait = n, wait
	return t
}

// MaxConcurrent caps the handlers of each of the group's actions running
// at once at n (see WithMaxConcurrent); n < 0 removes an enclosing cap.
func (g *Group) MaxConcurrent(n int, wait time.Duration) *Group {
	g.tool.mustBeMutable()
	limit.CheckConcurrent(fmt.Sprintf("group %q of tool %q: MaxConcurrent", g.name, g.tool.name), n, wait)
	g.limits.Concurrent, g.limits.Wait = n, wait
	return g
}

// MaxConcurrent caps the action's handlers running at once at n. A
// handler counts from its start until it returns, even past its call's
// deadline, so the cap holds for the work actually running. A call that
// finds n running waits up to wait for a slot (its deadline starts once it
// has one), then is refused with Messages.AtCapacity. n < 0 removes an
// enclosing level's cap.
func (a *ActionDef) MaxConcurrent(n int, wait time.Duration) *ActionDef {
	a.mustBeMutable()
	limit.CheckConcurrent(fmt.Sprintf("action %q: MaxConcurrent", a.key), n, wait)
	a.limits.Concurrent, a.limits.Wait = n, wait
	return a
}

// MaxOutput caps the text of the results of the tool's actions at n bytes
// (see ActionDef.MaxOutput).
func (t *Tool) MaxOutput(n int) *Tool {
	t.mustBeMutable()
	limit.CheckMaxOutput(fmt.Sprintf("tool %q", t.name), n)
	t.limits.MaxOutput = n
	return t
}

// MaxOutput caps the text of the results of the group's actions at n
// bytes (see ActionDef.MaxOutput).
func (g *Group) MaxOutput(n int) *Group {
	g.tool.mustBeMutable()
	limit.CheckMaxOutput(fmt.Sprintf("group %q of tool %q", g.name, g.tool.name), n)
	g.limits.MaxOutput = n
	return g
}

// MaxOutput caps the text of the action's results at n bytes, overriding
// its group's, its tool's and the app's cap; n < 0 removes the cap. A
// result whose text blocks hold more is cut at n bytes (at a character
// boundary; text blocks past the cut are dropped, other blocks kept), and
// ends with a text block saying so (Messages.Truncated). A result with
// structuredContent cannot be cut without breaking its schema: it loses
// its structured content and becomes an error result with the text cut.
func (a *ActionDef) MaxOutput(n int) *ActionDef {
	a.mustBeMutable()
	limit.CheckMaxOutput(fmt.Sprintf("action %q", a.key), n)
	a.limits.MaxOutput = n
	return a
}

// HandlerStats is a snapshot of the app's handler gauges.
type HandlerStats struct {
	// Running is the handlers running now, the overdue ones included.
	Running int
	// Overdue is the handlers still running after their call was answered
	// (it timed out or its caller went away): handlers that ignore their
	// context. The observer sees each one start (HandlerOverdue) and end
	// (HandlerReturned).
	Overdue int
}

// HandlerStats reads the app's handler gauges, for metrics and health
// checks. It builds the app if needed.
func (a *App) HandlerStats() HandlerStats {
	h := a.built().Runtime().Handlers()
	return HandlerStats{Running: int(h.Running), Overdue: int(h.Overdue)}
}

// lowerLimits resolves the action's limits across its levels; each
// level's rate limits are named by its scope.
func (d *ActionDef) lowerLimits() engine.Limits {
	t, g := d.tool, d.group
	group := limit.Level{}
	if g != nil {
		group = limit.Level{Set: &g.limits, Scope: t.name + "." + g.name + ".*"}
	}
	return limit.Resolve(
		limit.Level{Set: &d.limits, Scope: d.canonicalKey()},
		group,
		limit.Level{Set: &t.limits, Scope: t.name + ".*"},
		limit.Level{Set: &t.app.cfg.callLimits, Scope: "*"},
	)
}

// limitRuntime sets the handler bounds and the rate store of rt from the
// options.
func (c *config) limitRuntime(rt *engine.Runtime) {
	limit.Apply(rt, c.maxRunning, c.rateStore)
}
