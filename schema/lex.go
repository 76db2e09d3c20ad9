package schema

import (
	"unicode/utf16"
	"unicode/utf8"
)

// The lexical layer of the pre-scan: strings, numbers, literals, escapes.

func (s *scanner) ws() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

func (s *scanner) peek() byte {
	if s.pos < len(s.data) {
		return s.data[s.pos]
	}
	return 0
}

// literal consumes true, false or null.
func (s *scanner) literal(word string) bool {
	for i := 0; i < len(word); i++ {
		if s.pos >= len(s.data) || s.data[s.pos] != word[i] {
			s.failChar()
			return false
		}
		s.pos++
	}
	return true
}

// str scans a string starting at the opening quote and returns the span of
// its contents. esc reports backslash escapes, bad invalid UTF-8.
func (s *scanner) str() (start, end int, esc, bad bool) {
	s.pos++
	start = s.pos
	data := s.data
	// highSurrogate: the last escape was \uD800-\uDBFF, which only a low
	// surrogate may follow. encoding/json would turn a lone half into
	// U+FFFD silently; like raw invalid UTF-8, it is refused.
	highSurrogate := false
	for s.pos < len(data) {
		c := data[s.pos]
		if highSurrogate && c != '\\' {
			bad, highSurrogate = true, false
		}
		switch {
		case c == '"':
			end = s.pos
			s.pos++
			return start, end, esc, bad
		case c == '\\':
			esc = true
			s.pos++
			if s.pos >= len(data) {
				break
			}
			switch data[s.pos] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				if highSurrogate {
					bad, highSurrogate = true, false
				}
				s.pos++
			case 'u':
				s.pos++
				var r rune
				for j := 0; j < 4; j++ {
					if s.pos >= len(data) {
						s.fail(s.msgs.ReasonEOF)
						return
					}
					if !isHex(data[s.pos]) {
						s.fail(s.msgs.ReasonEscape)
						return
					}
					r = r<<4 | hexValue(data[s.pos])
					s.pos++
				}
				switch {
				case r >= 0xDC00 && r <= 0xDFFF: // a low half: fine only after a high one
					bad = bad || !highSurrogate
					highSurrogate = false
				case highSurrogate: // a high half not followed by a low one
					bad = true
					highSurrogate = r >= 0xD800 && r <= 0xDBFF
				default:
					highSurrogate = r >= 0xD800 && r <= 0xDBFF
				}
			default:
				s.fail(s.msgs.ReasonEscape)
				return
			}
		case c < 0x20:
			s.fail(s.msgs.ReasonControl)
			return
		case c < utf8.RuneSelf:
			s.pos++
		default:
			r, size := utf8.DecodeRune(data[s.pos:])
			if r == utf8.RuneError && size == 1 {
				bad = true
			}
			s.pos += size
		}
	}
	s.fail(s.msgs.ReasonEOF)
	return
}

func hexValue(c byte) rune {
	switch {
	case c >= '0' && c <= '9':
		return rune(c - '0')
	case c >= 'a' && c <= 'f':
		return rune(c-'a') + 10
	}
	return rune(c-'A') + 10
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// number scans a JSON number; isInt is false when it has a fraction or an exponent.
func (s *scanner) number() (isInt, ok bool) {
	data := s.data
	isInt = true
	if s.peek() == '-' {
		s.pos++
	}
	switch {
	case s.pos >= len(data):
		s.fail(s.msgs.ReasonEOF)
		return
	case data[s.pos] == '0':
		s.pos++
	case data[s.pos] >= '1' && data[s.pos] <= '9':
		for s.pos < len(data) && data[s.pos] >= '0' && data[s.pos] <= '9' {
			s.pos++
		}
	default:
		s.fail(s.msgs.ReasonNumber)
		return
	}
	if s.peek() == '.' {
		isInt = false
		s.pos++
		if !s.digits() {
			return
		}
	}
	if c := s.peek(); c == 'e' || c == 'E' {
		isInt = false
		s.pos++
		if c := s.peek(); c == '+' || c == '-' {
			s.pos++
		}
		if !s.digits() {
			return
		}
	}
	return isInt, true
}

func (s *scanner) digits() bool {
	start := s.pos
	for s.pos < len(s.data) && s.data[s.pos] >= '0' && s.data[s.pos] <= '9' {
		s.pos++
	}
	if s.pos == start {
		s.fail(s.msgs.ReasonNumber)
		return false
	}
	return true
}

// validNumber reports whether b is exactly one JSON number.
func validNumber(b []byte) bool {
	s := scanner{data: b, msgs: builtin}
	if len(b) == 0 || (b[0] != '-' && (b[0] < '0' || b[0] > '9')) {
		return false
	}
	_, ok := s.number()
	return ok && s.pos == len(b)
}

// unescape decodes the contents of a JSON string the pre-scan found well
// formed, as encoding/json does (lone surrogates become U+FFFD).
func unescape(raw []byte) []byte {
	out := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); {
		c := raw[i]
		if c != '\\' {
			out = append(out, c)
			i++
			continue
		}
		i++
		switch raw[i] {
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r := hex4(raw[i+1 : i+5])
			i += 4
			if utf16.IsSurrogate(r) {
				r2 := rune(-1)
				if i+6 < len(raw) && raw[i+1] == '\\' && raw[i+2] == 'u' {
					r2 = hex4(raw[i+3 : i+7])
				}
				if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
					r = dec
					i += 6
				} else {
					r = utf8.RuneError
				}
			}
			out = utf8.AppendRune(out, r)
		default: // '"', '\\', '/'
			out = append(out, raw[i])
		}
		i++
	}
	return out
}

func hex4(b []byte) rune {
	var r rune
	for _, c := range b {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		default:
			r |= rune(c - 'A' + 10)
		}
	}
	return r
}
