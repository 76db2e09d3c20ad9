package glob

// coverBudget caps the states one Covers call may explore. Ordinary policy
// patterns need a few dozen; only long runs mixing literals and "*" between
// "**" segments, paired with a narrow pattern full of "**", can need more.
const coverBudget = 1 << 14

// Covers reports whether every key matched by narrow is also matched by p, so
// that a policy with pattern narrow listed after p can never win under
// first-match-wins.
//
// Covers is exact for patterns made of literal, "*" and "**" segments: it
// runs p over the keys narrow can produce, where a "*" or "**" of narrow
// stands for segments unlike any literal of p (the hardest case for p), and
// keeps only sets of positions of p, never enumerating keys. It is
// conservative (may report false for a pair that does cover) when p has
// within-segment wildcards such as "task*", and when a pair would need more
// than a fixed budget of simulation states (about 16k, a few milliseconds):
// only long runs mixing literals and "*" between "**" segments get there.
func (p *Pattern) Covers(narrow *Pattern) bool {
	if p.src == narrow.src {
		return true
	}
	ok, _ := covers(p.segs, narrow.segs, new(int))
	return ok
}

// coverState is a memo key: narrow's next segment, whether the key built so
// far is non-empty, and the reachable positions of the wide pattern.
type coverState struct {
	j        int
	nonEmpty bool
	set      string
}

// coverSearch decides whether the keys of narrow are all keys of wide.
type coverSearch struct {
	wide, narrow []segment
	seen         map[coverState]struct{}
	wilds        map[[2]*segment]bool // cached wild-in-wild answers
	spent        *int                 // states explored, shared with nested searches
}

// fresh stands for a key segment equal to no literal of the wide pattern:
// whatever the wide pattern accepts for it, it accepts for any segment.
var fresh = &segment{kind: one, text: "*"}

// covers reports whether wide covers narrow; spent accumulates the states
// explored so tests can check the work stays bounded.
func covers(wide, narrow []segment, spent *int) (bool, int) {
	c := &coverSearch{
		wide:   wide,
		narrow: narrow,
		seen:   make(map[coverState]struct{}),
		wilds:  make(map[[2]*segment]bool),
		spent:  spent,
	}
	start := make([]bool, len(wide)+1)
	start[0] = true
	closure(wide, start)
	return c.explore(0, false, start), *spent
}

// explore reports whether, from the wide positions in set, the wide pattern
// accepts every completion of a key by narrow[j:]. Narrow's index only grows,
// and any failure ends the whole search, so a state seen before is known good.
func (c *coverSearch) explore(j int, nonEmpty bool, set []bool) bool {
	c.prune(set)
	if j == len(c.narrow) {
		// Keys are never empty, so the empty sequence needs no cover.
		return set[len(c.wide)] || !nonEmpty
	}
	key := coverState{j: j, nonEmpty: nonEmpty, set: setKey(set)}
	if _, ok := c.seen[key]; ok {
		return true
	}
	if *c.spent >= coverBudget {
		return false // too costly to decide: answer conservatively
	}
	*c.spent++
	c.seen[key] = struct{}{}

	q := &c.narrow[j]
	if q.kind != many {
		next, alive := c.step(set, j)
		return alive && c.explore(j+1, true, next)
	}
	// "**" in narrow: try zero, one, two... fresh segments. The wide positions
	// drift right or stay on its own "**", so the sets soon repeat.
	if !c.explore(j+1, nonEmpty, set) {
		return false
	}
	tried := map[string]bool{}
	for cur := set; ; {
		next, alive := c.step(cur, -1)
		if !alive {
			return false
		}
		c.prune(next)
		k := setKey(next)
		if tried[k] {
			return true
		}
		tried[k] = true
		if !c.explore(j+1, true, next) {
			return false
		}
		cur = next
	}
}

// step advances set by one key segment described by narrow[j], or by a fresh
// segment when j is -1, keeping only moves valid for every such segment.
func (c *coverSearch) step(set []bool, j int) ([]bool, bool) {
	q := fresh
	if j >= 0 {
		q = &c.narrow[j]
	}
	next := make([]bool, len(set))
	alive := advance(c.wide, set, next, func(w *segment) bool {
		switch w.kind {
		case literal:
			return q.kind == literal && q.text == w.text
		case wild:
			return c.wildAccepts(w, q)
		}
		return true
	})
	return next, alive
}

// wildAccepts reports whether the within-segment wildcard w surely accepts
// every segment q can stand for. For "*" and "**" of narrow it answers false
// (conservatively): some segment might dodge w.
func (c *coverSearch) wildAccepts(w, q *segment) bool {
	switch q.kind {
	case literal:
		return w.matches(q.text)
	case wild:
		if ok, done := c.wilds[[2]*segment{w, q}]; done {
			return ok
		}
		ok, _ := covers(w.chars, q.chars, c.spent)
		c.wilds[[2]*segment{w, q}] = ok
		return ok
	}
	return false
}

// prune drops positions before the last "**" reached: anything the pattern
// accepts from an earlier position it also accepts from that "**", so they
// add nothing and only multiply the distinct sets to remember.
func (c *coverSearch) prune(set []bool) {
	for i := len(c.wide) - 1; i >= 0; i-- {
		if set[i] && c.wide[i].kind == many {
			clear(set[:i])
			return
		}
	}
}

// setKey encodes a set of positions as a map key.
func setKey(set []bool) string {
	b := make([]byte, len(set))
	for i, in := range set {
		if in {
			b[i] = 1
		}
	}
	return string(b)
}
