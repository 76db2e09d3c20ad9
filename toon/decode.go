package toon

import "unicode/utf8"

// decoder builds the model from scanned lines. It reads top-down: each
// method consumes the lines that belong to the structure it parses and
// stops at the first line that does not, leaving it to its caller.
type decoder struct {
	lines  []line
	pos    int // next unread line
	last   int // last content line consumed
	strict bool
}

// decodeDocument parses a TOON document into the model.
func decodeDocument(data []byte, o options) (value, error) {
	if !utf8.Valid(data) {
		// Replace bad bytes up front, so that keys which differ only in
		// them are not told apart here and merged in the output.
		data = []byte(string(appendValidUTF8(nil, string(data))))
	}
	lines, err := scanLines(data, o)
	if err != nil {
		return value{}, err
	}
	d := decoder{lines: lines, strict: o.strict}
	v, err := d.document()
	if err != nil {
		return value{}, err
	}
	if o.expand == ExpandPathsSafe {
		return expandPaths(v, o.strict)
	}
	return v, nil
}

// next returns the index of the next content line at or after pos,
// skipping blank lines without consuming them.
func (d *decoder) next() int {
	i := d.pos
	for i < len(d.lines) && d.lines[i].text == "" {
		i++
	}
	return i
}

func (d *decoder) consume(i int) *line {
	d.pos, d.last = i+1, i
	return &d.lines[i]
}

// document decides the root form (spec §5): an array when the first line
// is a keyless header, a primitive when the only line is neither a header
// nor a field, an object otherwise (an empty document is {}).
func (d *decoder) document() (value, error) {
	first := d.next()
	if first == len(d.lines) {
		return value{kind: kindObject}, nil
	}
	ln := &d.lines[first]
	if ln.depth != 0 {
		return value{}, syntaxErrorf(ln.num, "the document must start without indentation")
	}
	d.pos = first + 1
	single := d.next() == len(d.lines)
	d.pos = first
	if single && ln.text == "[]" {
		d.consume(first)
		return value{kind: kindArray}, nil
	}
	e, ok, err := parseEntry(ln.text, ln.num, d.strict)
	switch {
	case err != nil:
		return value{}, err
	case ok && e.header != nil && !e.hasKey:
		d.consume(first)
		v, err := d.array(e, 0, first)
		if err != nil {
			return value{}, err
		}
		if i := d.next(); i < len(d.lines) {
			return value{}, syntaxErrorf(d.lines[i].num, "unexpected content after the root array")
		}
		return v, nil
	case !ok && single:
		d.consume(first)
		return parsePrimitive(ln.text, ln.num)
	}
	var obj objectBuilder
	if err := d.object(0, &obj); err != nil {
		return value{}, err
	}
	return obj.value(), nil
}

// object reads the fields at depth into obj.
func (d *decoder) object(depth int, obj *objectBuilder) error {
	for {
		i := d.next()
		if i == len(d.lines) || d.lines[i].depth < depth {
			return nil
		}
		ln := d.consume(i)
		if ln.depth > depth {
			return syntaxErrorf(ln.num, "unexpected indentation: expected depth %d, found %d", depth, ln.depth)
		}
		e, ok, err := parseEntry(ln.text, ln.num, d.strict)
		switch {
		case err != nil:
			return err
		case !ok:
			return syntaxErrorf(ln.num, `missing ":" after key in %q; a field is "key: value"`, ln.text)
		case !e.hasKey:
			return syntaxErrorf(ln.num, "array header without a key inside an object")
		}
		m, err := d.field(e, depth, i)
		if err != nil {
			return err
		}
		if err := d.add(obj, m); err != nil {
			return err
		}
	}
}

// field reads the value of the field opened by e at depth; nested lines
// sit at depth+1.
func (d *decoder) field(e entry, depth, at int) (value, error) {
	var v value
	var err error
	switch {
	case e.header != nil:
		v, err = d.array(e, depth, at)
	case e.rest == "":
		var obj objectBuilder
		err = d.object(depth+1, &obj)
		v = obj.value()
	case e.rest == "[]":
		v = value{kind: kindArray}
	default:
		v, err = parsePrimitive(e.rest, d.lines[at].num)
	}
	v.key, v.quoted, v.line = e.key, e.quoted, int32(d.lines[at].num)
	return v, err
}

// add puts a member into obj; a repeated key is an error in strict mode
// and otherwise replaces the earlier value (spec §14.4).
func (d *decoder) add(obj *objectBuilder, m value) error {
	i := obj.find(m.key)
	switch {
	case i < 0:
		obj.add(m)
	case d.strict:
		return syntaxErrorf(int(m.line), "duplicate key %q (first at line %d)", m.key, obj.kids[i].line)
	default:
		obj.kids[i] = m
	}
	return nil
}

// array reads the array whose header e is on line at, at depth.
func (d *decoder) array(e entry, depth, at int) (value, error) {
	h, num := e.header, d.lines[at].num
	var items []value
	var err error
	switch {
	case h.fields != nil:
		if e.rest != "" {
			return value{}, syntaxErrorf(num, "unexpected values after a tabular header; rows go on the following lines")
		}
		items, err = d.table(h, depth+1, at)
	case e.rest != "":
		items, err = inlineValues(h, e.rest, num)
	default:
		items, err = d.list(depth+1, at)
	}
	if err != nil {
		return value{}, err
	}
	if d.strict && len(items) != h.n {
		return value{}, syntaxErrorf(num, "array length [%d] does not match the %d items found", h.n, len(items))
	}
	if items == nil {
		items = []value{}
	}
	return value{kind: kindArray, kids: items}, nil
}

func inlineValues(h *header, rest string, num int) ([]value, error) {
	cells := splitCells(rest, h.delim)
	items := make([]value, len(cells))
	for i, c := range cells {
		v, err := parsePrimitive(trimCell(c, h.delim), num)
		if err != nil {
			return nil, err
		}
		items[i] = v
	}
	return items, nil
}

// table reads tabular rows at depth (spec §9.3).
func (d *decoder) table(h *header, depth, at int) ([]value, error) {
	dup, hasDup := duplicateField(h.fields)
	if hasDup && d.strict {
		return nil, syntaxErrorf(d.lines[at].num, "duplicate field %q in tabular header", dup)
	}
	var rows []value
	first := -1
	for {
		i := d.next()
		if i == len(d.lines) || d.lines[i].depth != depth || !isRow(d.lines[i].text, h.delim) {
			break
		}
		ln := d.consume(i)
		if first < 0 {
			first = i
		}
		cells := splitCells(ln.text, h.delim)
		if d.strict && len(cells) != len(h.fields) {
			return nil, syntaxErrorf(ln.num, "row has %d values but the header declares %d fields", len(cells), len(h.fields))
		}
		row := objectBuilder{kids: make([]value, 0, len(h.fields))}
		for j, f := range h.fields[:min(len(cells), len(h.fields))] {
			v, err := parsePrimitive(trimCell(cells[j], h.delim), ln.num)
			if err != nil {
				return nil, err
			}
			v.key, v.quoted, v.line = f.name, f.quoted, int32(ln.num)
			if hasDup {
				row.set(v)
			} else {
				row.kids = append(row.kids, v)
			}
		}
		rows = append(rows, row.value())
	}
	return rows, d.checkBlank(first)
}

func duplicateField(fields []field) (string, bool) {
	seen := make(map[string]bool, len(fields))
	for _, f := range fields {
		if seen[f.name] {
			return f.name, true
		}
		seen[f.name] = true
	}
	return "", false
}

// list reads "- " items at depth (spec §9.4).
func (d *decoder) list(depth, at int) ([]value, error) {
	var items []value
	first := -1
	for {
		i := d.next()
		if i == len(d.lines) || d.lines[i].depth < depth {
			break
		}
		ln := d.consume(i)
		if first < 0 {
			first = i
		}
		if ln.depth > depth {
			return nil, syntaxErrorf(ln.num, "unexpected indentation: expected depth %d, found %d", depth, ln.depth)
		}
		if ln.text != "-" && (len(ln.text) < 2 || ln.text[:2] != "- ") {
			return nil, syntaxErrorf(ln.num, `expected a list item "- ..." in the array declared on line %d`, d.lines[at].num)
		}
		v, err := d.item(ln, depth, i)
		if err != nil {
			return nil, err
		}
		items = append(items, v)
	}
	return items, d.checkBlank(first)
}

// item reads one list item at depth: an empty object ("-"), an inline or
// nested array ("- [N]:"), an object whose first field shares the hyphen
// line, or a primitive (spec §10).
func (d *decoder) item(ln *line, depth, at int) (value, error) {
	if ln.text == "-" {
		return value{kind: kindObject}, nil
	}
	rest := trimToken(ln.text[2:])
	switch rest {
	case "":
		return value{kind: kindObject}, nil
	case "[]":
		return value{kind: kindArray}, nil
	}
	e, ok, err := parseEntry(rest, ln.num, d.strict)
	switch {
	case err != nil:
		return value{}, err
	case !ok:
		return parsePrimitive(rest, ln.num)
	case !e.hasKey:
		return d.array(e, depth, at)
	}
	// The first field nests as if it were on its own line at depth+1,
	// like the fields that follow it.
	first, err := d.field(e, depth+1, at)
	if err != nil {
		return value{}, err
	}
	obj := objectBuilder{kids: []value{first}}
	if err := d.object(depth+1, &obj); err != nil {
		return value{}, err
	}
	return obj.value(), nil
}

// checkBlank rejects, in strict mode, a blank line between the first item
// of an array, on line first (-1 if none), and the last line the array
// consumed (spec §12 and B.6).
func (d *decoder) checkBlank(first int) error {
	if !d.strict || first < 0 {
		return nil
	}
	for i := first + 1; i < d.last; i++ {
		if d.lines[i].text == "" {
			return syntaxErrorf(d.lines[i].num, "blank line inside an array")
		}
	}
	return nil
}
