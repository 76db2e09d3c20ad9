package glob

import "strings"

// Match reports whether key is matched by p. Keys are canonical dotted keys;
// an empty key or one with an empty segment ("a..b") never matches.
//
// Match runs in O(len(pattern segments) × len(key segments)) steps: it keeps
// the set of pattern positions reachable so far instead of backtracking.
func (p *Pattern) Match(key string) bool {
	if key == "" {
		return false
	}
	n := len(p.segs)
	var buf [64]bool // enough for patterns of up to 31 segments without allocating
	var states []bool
	if 2*(n+1) <= len(buf) {
		states = buf[:2*(n+1)]
	} else {
		states = make([]bool, 2*(n+1))
	}
	cur, next := states[:n+1], states[n+1:]
	cur[0] = true
	closure(p.segs, cur)
	for rest, more := key, true; more; {
		var seg string
		seg, rest, more = strings.Cut(rest, ".")
		if seg == "" {
			return false
		}
		if !advance(p.segs, cur, next, func(s *segment) bool { return s.matches(seg) }) {
			return false
		}
		cur, next = next, cur
	}
	return cur[n]
}

// advance fills next with the positions reachable from cur by consuming one
// key segment, given which pattern segments accept it, and reports whether any
// position survives. Position i means "before segs[i]"; len(segs) accepts.
func advance(segs []segment, cur, next []bool, accepts func(*segment) bool) (alive bool) {
	clear(next)
	for i := range segs {
		if !cur[i] {
			continue
		}
		switch s := &segs[i]; {
		case s.kind == many:
			next[i] = true // "**" absorbs the segment and may absorb more
			alive = true
		case accepts(s):
			next[i+1] = true
			alive = true
		}
	}
	closure(segs, next)
	return alive
}

// closure adds the positions reachable without consuming anything: a "**"
// may match zero segments, so standing before it also means standing after.
func closure(segs []segment, states []bool) {
	for i := range segs {
		if states[i] && segs[i].kind == many {
			states[i+1] = true
		}
	}
}

// matches reports whether the single, non-empty key segment seg is accepted
// by s. It is never asked about "**", which advance handles itself.
func (s *segment) matches(seg string) bool {
	switch s.kind {
	case literal:
		return s.text == seg
	case wild:
		return matchParts(s.parts, seg)
	}
	return true
}

// matchParts matches seg against a within-segment wildcard split around its
// stars. Taking each middle part at its leftmost occurrence is optimal when
// '*' is the only wildcard, so this never backtracks.
func matchParts(parts []string, seg string) bool {
	first, last := parts[0], parts[len(parts)-1]
	if len(seg) < len(first)+len(last) || !strings.HasPrefix(seg, first) || !strings.HasSuffix(seg, last) {
		return false
	}
	rest := seg[len(first) : len(seg)-len(last)]
	for _, part := range parts[1 : len(parts)-1] {
		i := strings.Index(rest, part)
		if i < 0 {
			return false
		}
		rest = rest[i+len(part):]
	}
	return true
}
