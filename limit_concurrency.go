package vurb

import (
	"fmt"
	"time"
)

// WithMaxConcurrent caps every action's handlers running at once at n,
// each action on its own (tools, groups and actions may set their own
// with MaxConcurrent). A call that finds n running waits up to wait for
// one to end, then is refused with Messages.AtCapacity. By default there
// is no such cap; see also WithMaxRunningPerAction, which refuses at once
// with the Busy message.
func WithMaxConcurrent(n int, wait time.Duration) Option {
	checkConcurrent("WithMaxConcurrent", n, wait)
	return func(c *config) { c.callLimits.concurrent, c.callLimits.wait = n, wait }
}

// MaxConcurrent caps the handlers of each of the tool's actions running at
// once at n (see WithMaxConcurrent); n < 0 removes the app's cap.
func (t *Tool) MaxConcurrent(n int, wait time.Duration) *Tool {
	t.mustBeMutable()
	checkConcurrent(fmt.Sprintf("tool %q: MaxConcurrent", t.name), n, wait)
	t.limits.concurrent, t.limits.wait = n, wait
	return t
}

// MaxConcurrent caps the handlers of each of the group's actions running
// at once at n (see WithMaxConcurrent); n < 0 removes an enclosing cap.
func (g *Group) MaxConcurrent(n int, wait time.Duration) *Group {
	g.tool.mustBeMutable()
	checkConcurrent(fmt.Sprintf("group %q of tool %q: MaxConcurrent", g.name, g.tool.name), n, wait)
	g.limits.concurrent, g.limits.wait = n, wait
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
	checkConcurrent(fmt.Sprintf("action %q: MaxConcurrent", a.key), n, wait)
	a.limits.concurrent, a.limits.wait = n, wait
	return a
}

func checkConcurrent(where string, n int, wait time.Duration) {
	if n == 0 || wait < 0 {
		panic(fmt.Sprintf("vurb: %s(%d, %s): give a cap above 0 (or below 0 for none) and a wait of 0 or more", where, n, wait))
	}
}
