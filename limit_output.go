package vurb

import "fmt"

// DefaultMaxOutput caps the text of one result, by default: 1 MiB, about
// 250,000 tokens, more than most models can take in one turn. A larger
// result is cut there and ends with Messages.Truncated, which tells the
// model to narrow its request.
const DefaultMaxOutput = 1 << 20

// WithMaxOutput caps the bytes of text in each result of every action
// (default DefaultMaxOutput); tools, groups and actions may set their own
// with MaxOutput. n < 0 removes the cap.
func WithMaxOutput(n int) Option {
	return func(c *config) {
		if n != 0 {
			c.callLimits.maxOutput = n
		}
	}
}

// MaxOutput caps the text of the results of the tool's actions at n bytes
// (see ActionDef.MaxOutput).
func (t *Tool) MaxOutput(n int) *Tool {
	t.mustBeMutable()
	checkMaxOutput(fmt.Sprintf("tool %q", t.name), n)
	t.limits.maxOutput = n
	return t
}

// MaxOutput caps the text of the results of the group's actions at n
// bytes (see ActionDef.MaxOutput).
func (g *Group) MaxOutput(n int) *Group {
	g.tool.mustBeMutable()
	checkMaxOutput(fmt.Sprintf("group %q of tool %q", g.name, g.tool.name), n)
	g.limits.maxOutput = n
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
	checkMaxOutput(fmt.Sprintf("action %q", a.key), n)
	a.limits.maxOutput = n
	return a
}

func checkMaxOutput(where string, n int) {
	if n == 0 {
		panic(fmt.Sprintf("vurb: %s: MaxOutput(0): give a cap in bytes, or -1 for none", where))
	}
}
