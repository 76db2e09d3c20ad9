package schema

import (
	"strconv"
	"strings"
)

// The JSON path of the value being scanned, kept as a stack inside the scanner.

// frameKind says what a path segment is.
type frameKind uint8

const (
	frameField frameKind = iota // a struct property: ".name"
	frameIndex                  // an array element: "[3]"
	frameKey                    // a map or free-form key: "[key]"
)

// seg is one step of the current JSON path.
type seg struct {
	kind       frameKind
	esc        bool   // frameKey: the key has escapes
	name       string // frameField
	start, end int    // frameKey: the key's span in data; frameIndex: start is the index
}

func (s *scanner) push(sg seg) {
	if s.nseg < len(s.segs) {
		s.segs[s.nseg] = sg
	} else {
		s.extra = append(s.extra[:s.nseg-len(s.segs)], sg)
	}
	s.nseg++
}

func (s *scanner) pop() { s.nseg-- }

func (s *scanner) seg(i int) *seg {
	if i < len(s.segs) {
		return &s.segs[i]
	}
	return &s.extra[i-len(s.segs)]
}

// path renders the current JSON path: "items[3].name", "tags[k]".
func (s *scanner) path() string {
	var b strings.Builder
	for i := 0; i < s.nseg; i++ {
		sg := s.seg(i)
		switch sg.kind {
		case frameField:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(sg.name)
		case frameIndex:
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(sg.start))
			b.WriteByte(']')
		case frameKey:
			b.WriteByte('[')
			b.WriteString(truncate(keyString(s.data[sg.start:sg.end], sg.esc), maxEcho))
			b.WriteByte(']')
		}
	}
	return b.String()
}
