package schema

// Edits: what the decoder must read differently from what was sent.
// encoding/json cannot apply a default to an absent property nor read 7.0
// into an int, so the pre-scan, which knows both, records each as an edit
// of the document (insert `"limit":20` before the closing brace of an
// object that lacks it, replace 7.0 by 7) and Decode decodes the edited
// copy.

// edit replaces data[start:end] with text; start == end inserts.
type edit struct {
	start, end int
	comma      bool // insert a comma before text: the object already has members
	text       string
}

// applyEdits returns a copy of data with edits applied; edits are in
// document order and do not overlap, as the pre-scan records them.
func applyEdits(data []byte, edits []edit) []byte {
	size := len(data)
	for _, e := range edits {
		size += len(e.text) + 1 - (e.end - e.start)
	}
	out := make([]byte, 0, size)
	last := 0
	for _, e := range edits {
		out = append(out, data[last:e.start]...)
		if e.comma {
			out = append(out, ',')
		}
		out = append(out, e.text...)
		last = e.end
	}
	return append(out, data[last:]...)
}

// noteEdit records an edit, unless the value was already reported.
func (s *scanner) noteEdit(e edit) {
	if s.quiet == 0 {
		s.edits = append(s.edits, e)
	}
}

// noteReplace records that data[start:end] reads as text.
func (s *scanner) noteReplace(start, end int, text []byte) {
	if s.quiet == 0 {
		s.edits = append(s.edits, edit{start: start, end: end, text: string(text)})
	}
}
