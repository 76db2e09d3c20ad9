package toon

import (
	"math"
	"strconv"
)

// encoder writes the model as TOON text. Lines are joined by LF with no
// trailing newline or spaces (spec §12). Every writer method is called with
// its first line already begun (indentation, and "- " for a list item);
// it writes the rest of that line and any lines below it.
type encoder struct {
	buf     []byte
	opts    options
	started bool
	// rootDotted holds the dotted keys of the root object: folding a deeper
	// chain into one of those paths would merge with it on expansion.
	rootDotted map[string]bool
}

// encode renders v as a TOON document; sizeHint, when known, saves the
// output buffer from growing step by step.
func encode(v *value, o options, sizeHint int) []byte {
	e := encoder{opts: o, buf: make([]byte, 0, max(sizeHint, 256))}
	switch {
	case v.kind == kindObject:
		if o.fold == KeyFoldingSafe {
			e.rootDotted = dottedKeys(v.kids)
		}
		e.fields(v.kids, 0, e.rootScope())
	case v.kind == kindArray && len(v.kids) == 0:
		e.buf = append(e.buf, "[]"...)
	case v.kind == kindArray:
		e.started = true // the header is the first line
		e.array("", false, v.kids, 0, true)
	default:
		e.primitive(v, o.delim)
	}
	return e.buf
}

// newLine begins a line at depth.
func (e *encoder) newLine(depth int) {
	if e.started {
		e.buf = append(e.buf, '\n')
	}
	e.started = true
	for n := depth * e.opts.indent; n > 0; n-- {
		e.buf = append(e.buf, ' ')
	}
}

// fields writes the members of an object, one field per line at depth.
func (e *encoder) fields(members []value, depth int, sc foldScope) {
	for i := range members {
		e.newLine(depth)
		e.field(&members[i], members, depth, sc)
	}
}

// field writes one member m at depth, its nested lines at depth+1.
func (e *encoder) field(m *value, siblings []value, depth int, sc foldScope) {
	key, v := m.key, m
	if f, ok := e.fold(m, siblings, sc); ok {
		key, v = f.key, f.leaf
		if f.tail {
			e.buf = appendKey(e.buf, key)
			e.buf = append(e.buf, ':')
			e.fields(v.kids, depth+1, sc.enter(key, f.segments))
			return
		}
	}
	switch v.kind {
	case kindObject:
		e.buf = appendKey(e.buf, key)
		e.buf = append(e.buf, ':')
		e.fields(v.kids, depth+1, sc.enter(key, 0))
	case kindArray:
		if len(v.kids) == 0 {
			e.buf = appendKey(e.buf, key)
			e.buf = append(e.buf, ": []"...)
			return
		}
		e.array(key, true, v.kids, depth, true)
	default:
		e.buf = appendKey(e.buf, key)
		e.buf = append(e.buf, ':', ' ')
		e.primitive(v, e.opts.delim)
	}
}

// array writes an array header (with key when hasKey) and its content:
// inline values for primitives, rows for a uniform table when tabular is
// allowed, list items otherwise. Nested lines go to depth+1.
func (e *encoder) array(key string, hasKey bool, items []value, depth int, tabular bool) {
	if allPrimitive(items) {
		e.header(key, hasKey, len(items), nil)
		if len(items) == 0 {
			return
		}
		e.buf = append(e.buf, ' ')
		for i := range items {
			if i > 0 {
				e.buf = append(e.buf, e.opts.delim)
			}
			e.primitive(&items[i], e.opts.delim)
		}
		return
	}
	if tabular {
		if cols := tableColumns(items); cols != nil {
			e.header(key, hasKey, len(items), cols)
			e.rows(items, cols, depth+1)
			return
		}
	}
	e.header(key, hasKey, len(items), nil)
	for i := range items {
		e.newLine(depth + 1)
		e.item(&items[i], depth+1)
	}
}

// header writes key[N<delim>]{fields}: (spec §6).
func (e *encoder) header(key string, hasKey bool, n int, cols []value) {
	if hasKey {
		e.buf = appendKey(e.buf, key)
	}
	e.buf = append(e.buf, '[')
	e.buf = strconv.AppendInt(e.buf, int64(n), 10)
	if e.opts.delim != ',' {
		e.buf = append(e.buf, e.opts.delim)
	}
	e.buf = append(e.buf, ']')
	if cols != nil {
		e.buf = append(e.buf, '{')
		for i := range cols {
			if i > 0 {
				e.buf = append(e.buf, e.opts.delim)
			}
			e.buf = appendKey(e.buf, cols[i].key)
		}
		e.buf = append(e.buf, '}')
	}
	e.buf = append(e.buf, ':')
}

// rows writes one line per object, cells in the order of cols.
func (e *encoder) rows(items []value, cols []value, depth int) {
	for i := range items {
		e.newLine(depth)
		row := items[i].kids
		for j := range cols {
			if j > 0 {
				e.buf = append(e.buf, e.opts.delim)
			}
			cell := &row[j]
			if cell.key != cols[j].key {
				cell = member(row, cols[j].key)
			}
			e.primitive(cell, e.opts.delim)
		}
	}
}

// item writes one list item "- ..." at depth (spec §9.4 and §10).
func (e *encoder) item(v *value, depth int) {
	switch v.kind {
	case kindArray:
		e.buf = append(e.buf, '-', ' ')
		e.array("", false, v.kids, depth, false)
	case kindObject:
		if len(v.kids) == 0 {
			e.buf = append(e.buf, '-')
			return
		}
		// The first field shares the hyphen line but nests as if it were
		// written at depth+1, like the fields that follow it.
		e.buf = append(e.buf, '-', ' ')
		sc := e.itemScope()
		e.field(&v.kids[0], v.kids, depth+1, sc)
		for i := 1; i < len(v.kids); i++ {
			e.newLine(depth + 1)
			e.field(&v.kids[i], v.kids, depth+1, sc)
		}
	default:
		e.buf = append(e.buf, '-', ' ')
		e.primitive(v, e.opts.delim)
	}
}

// primitive writes a scalar; strings are quoted as delim requires.
func (e *encoder) primitive(v *value, delim byte) {
	switch v.kind {
	case kindNull:
		e.buf = append(e.buf, "null"...)
	case kindBool:
		if v.num != 0 {
			e.buf = append(e.buf, "true"...)
		} else {
			e.buf = append(e.buf, "false"...)
		}
	case kindInt:
		e.buf = strconv.AppendInt(e.buf, int64(v.num), 10)
	case kindUint:
		e.buf = strconv.AppendUint(e.buf, v.num, 10)
	case kindFloat:
		e.buf = appendFloat(e.buf, math.Float64frombits(v.num), 64)
	case kindFloat32:
		e.buf = appendFloat(e.buf, math.Float64frombits(v.num), 32)
	case kindNumber:
		e.buf = append(e.buf, v.str...)
	case kindString:
		e.buf = appendString(e.buf, v.str, delim)
	}
}

func allPrimitive(items []value) bool {
	for i := range items {
		if !items[i].isPrimitive() {
			return false
		}
	}
	return true
}

// tableColumns returns the members of the first object, whose keys are the
// table's columns, when items qualify for the tabular form (spec §9.3):
// all non-empty objects with the same key set and only primitive values.
// Otherwise it returns nil.
func tableColumns(items []value) []value {
	first := items[0].kids
	if items[0].kind != kindObject || len(first) == 0 {
		return nil
	}
	for i := range items {
		row := items[i].kids
		if items[i].kind != kindObject || len(row) != len(first) {
			return nil
		}
		for j := range row {
			if !row[j].isPrimitive() {
				return nil
			}
			if row[j].key != first[j].key && member(first, row[j].key) == nil {
				return nil
			}
		}
	}
	return first
}

// member finds the member named key in an object's members.
func member(members []value, key string) *value {
	for i := range members {
		if members[i].key == key {
			return &members[i]
		}
	}
	return nil
}
