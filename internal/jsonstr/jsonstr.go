// Package jsonstr writes Go strings as encoding/json writes them, without
// boxing the string into an interface and copying Marshal's output: the
// presenters write their fields with it, and the lanes the text blocks
// of their answers.
package jsonstr

import "unicode/utf8"

const hexDigits = "0123456789abcdef"

// Append appends s to b as json.Marshal writes a Go string: control
// characters escaped (\b \f \n \r \t by name, the others as \u00XX),
// and so are <, > and & (HTML-safe, Marshal's default) and U+2028 and
// U+2029. ok is false, and b as it was, for invalid UTF-8, whose
// replacement encoding/json writes differently from one Go release to the
// next (\ufffd, then the character itself from Go 1.27): it is left to
// encoding/json.
func Append(b []byte, s string) (out []byte, ok bool) {
	n := len(b)
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			return b[:n], false
		case r == '\u2028' || r == '\u2029':
			b = append(append(b, s[start:i]...), '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	return append(append(b, s[start:]...), '"'), true
}
