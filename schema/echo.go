package schema

// Messages echo what was sent where it helps a model correct itself (a
// number out of range, as sent). A field tagged redact holds what must
// not be repeated: the text the model reads is also the server's log
// line and the span's status, so a secret echoed there would be kept
// wherever those go. Inside such a field, and anything it holds, the
// echo is the redaction marker instead.

// RedactedEcho stands for what was sent in a field tagged redact, in a
// message that would otherwise repeat it: the presenters' default marker.
const RedactedEcho = "[redacted]"

// echo is lit as a message repeats it: cut to maxEcho bytes, or
// RedactedEcho inside a field tagged redact.
func (s *scanner) echo(lit []byte) string {
	if s.hush > 0 {
		return RedactedEcho
	}
	return truncate(string(lit), maxEcho)
}

// fieldValue scans the value of field f, hushing the echoes of what it
// holds when it is tagged redact.
func (s *scanner) fieldValue(f *shapeField) {
	if !f.redact {
		s.value(f.shape)
		return
	}
	s.hush++
	s.value(f.shape)
	s.hush--
}

// redacts reports whether a field tagged redact is anywhere in what sh
// reads: then the decoder's own errors, which may quote any of it and
// say nowhere where, are not echoed.
func (sh *shape) redacts() bool {
	seen := map[*shape]bool{}
	var walk func(*shape) bool
	walk = func(sh *shape) bool {
		if sh == nil || seen[sh] {
			return false
		}
		seen[sh] = true
		for i := range sh.fields {
			if sh.fields[i].redact || walk(sh.fields[i].shape) {
				return true
			}
		}
		return walk(sh.elem)
	}
	return walk(sh)
}
