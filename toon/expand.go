package toon

import "strings"

// expandPaths splits unquoted dotted keys whose segments are all
// identifiers into nested objects, deep-merging objects that share a
// prefix (spec §13.4). Keys are inserted in the order they are met. A clash
// between an object and a non-object, or two values for one leaf, is an
// error in strict mode and otherwise resolved by the later write.
func expandPaths(v value, strict bool) (value, error) {
	switch v.kind {
	case kindArray:
		for i := range v.kids {
			kid, err := expandPaths(v.kids[i], strict)
			if err != nil {
				return value{}, err
			}
			v.kids[i] = kid
		}
	case kindObject:
		root := &pathNode{}
		for i := range v.kids {
			m, err := expandPaths(v.kids[i], strict)
			if err != nil {
				return value{}, err
			}
			segs := []string{m.key}
			if !m.quoted && strings.IndexByte(m.key, '.') >= 0 {
				if parts := strings.Split(m.key, "."); allIdentifiers(parts) {
					segs = parts
				}
			}
			if err := root.insert(segs, "", m, strict); err != nil {
				return value{}, err
			}
		}
		v.kids = root.members()
	}
	return v, nil
}

func allIdentifiers(segs []string) bool {
	for _, s := range segs {
		if !isIdentifier(s) {
			return false
		}
	}
	return true
}

// pathNode is an object under construction during expansion; subs holds
// the nodes of member objects that later keys may still merge into.
type pathNode struct {
	obj  objectBuilder
	subs map[int]*pathNode
}

// sub returns the node for member i, an object.
func (n *pathNode) sub(i int) *pathNode {
	if s, ok := n.subs[i]; ok {
		return s
	}
	s := &pathNode{}
	for _, kid := range n.obj.kids[i].kids {
		s.obj.add(kid)
	}
	if n.subs == nil {
		n.subs = map[int]*pathNode{}
	}
	n.subs[i] = s
	return s
}

// insert places m under the path segs below n; prefix is the path of n,
// for error messages.
func (n *pathNode) insert(segs []string, prefix string, m value, strict bool) error {
	key := segs[0]
	path := joinPath(prefix, key)
	i := n.obj.find(key)
	if len(segs) == 1 {
		m.key = key
		switch {
		case i < 0:
			n.obj.add(m)
		case n.obj.kids[i].kind == kindObject && m.kind == kindObject:
			s := n.sub(i)
			for _, kid := range m.kids {
				if err := s.insert([]string{kid.key}, path, kid, strict); err != nil {
					return err
				}
			}
		case strict:
			return conflict(m, path, n.obj.kids[i], m)
		default:
			n.obj.kids[i] = m
			delete(n.subs, i)
		}
		return nil
	}
	switch {
	case i < 0:
		n.obj.add(value{kind: kindObject, key: key, line: m.line})
		i = len(n.obj.kids) - 1
	case n.obj.kids[i].kind != kindObject && strict:
		return conflict(m, path, n.obj.kids[i], value{kind: kindObject})
	case n.obj.kids[i].kind != kindObject:
		n.obj.kids[i] = value{kind: kindObject, key: key, line: m.line}
		delete(n.subs, i)
	}
	return n.sub(i).insert(segs[1:], path, m, strict)
}

// members returns the finished members, nested nodes folded back in.
func (n *pathNode) members() []value {
	for i, s := range n.subs {
		n.obj.kids[i].kids = s.members()
	}
	return n.obj.kids
}

func conflict(at value, path string, old, new value) error {
	return syntaxErrorf(int(at.line), "expansion conflict at path %q (%s vs %s)", path, shape(old), shape(new))
}

func shape(v value) string {
	switch v.kind {
	case kindObject:
		return "object"
	case kindArray:
		return "array"
	}
	return "primitive"
}
