package toon

import "strings"

// foldScope carries what key folding needs to know about where an object
// sits (spec §13.4).
type foldScope struct {
	budget int    // segments a folded key may still hold here
	path   string // dotted path from the root, when tracked
	// tracked is false inside arrays, where a path from the root has no
	// meaning for expansion.
	tracked bool
}

func (e *encoder) rootScope() foldScope {
	return foldScope{budget: e.opts.flatten, tracked: true}
}

func (e *encoder) itemScope() foldScope {
	return foldScope{budget: e.opts.flatten}
}

// enter returns the scope of the object stored under key. A folded key
// spends its segments from the budget, so a chain cut by the flatten depth
// is not folded again below the cut.
func (sc foldScope) enter(key string, spent int) foldScope {
	next := foldScope{budget: sc.budget - spent, tracked: sc.tracked}
	if sc.tracked {
		next.path = joinPath(sc.path, key)
	}
	return next
}

func joinPath(prefix, key string) string {
	if prefix == "" {
		return key
	}
	return prefix + "." + key
}

// folded is the outcome of folding one member.
type folded struct {
	key      string // the dotted key
	leaf     *value // the value under the last folded segment
	tail     bool   // leaf is a non-empty object written nested below key
	segments int
}

// fold collapses the chain of single-key objects starting at m into one
// dotted key, when folding is on and safe: at least two segments, all of
// them identifiers, and no sibling or root-level dotted key equal to the
// result (spec §13.4).
func (e *encoder) fold(m *value, siblings []value, sc foldScope) (folded, bool) {
	if e.opts.fold != KeyFoldingSafe || m.kind != kindObject {
		return folded{}, false
	}
	n, cur := 1, m
	for n < sc.budget && cur.kind == kindObject && len(cur.kids) == 1 {
		n, cur = n+1, &cur.kids[0]
	}
	if n < 2 {
		return folded{}, false
	}
	// A chain with any non-identifier segment is not folded at all, not
	// folded up to that segment.
	for c, i := m, 1; ; c, i = &c.kids[0], i+1 {
		if !isIdentifier(c.key) {
			return folded{}, false
		}
		if i == n {
			break
		}
	}
	var b strings.Builder
	b.WriteString(m.key)
	for c, i := m, 1; i < n; i++ {
		c = &c.kids[0]
		b.WriteByte('.')
		b.WriteString(c.key)
	}
	key := b.String()
	if member(siblings, key) != nil {
		return folded{}, false
	}
	if sc.tracked && sc.path != "" && e.rootDotted[joinPath(sc.path, key)] {
		return folded{}, false
	}
	tail := cur.kind == kindObject && len(cur.kids) > 0
	return folded{key: key, leaf: cur, tail: tail, segments: n}, true
}

// dottedKeys collects the keys of the root object that contain a dot.
func dottedKeys(members []value) map[string]bool {
	var set map[string]bool
	for i := range members {
		if strings.IndexByte(members[i].key, '.') >= 0 {
			if set == nil {
				set = make(map[string]bool)
			}
			set[members[i].key] = true
		}
	}
	return set
}
