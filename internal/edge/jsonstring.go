package edge

import (
	"encoding/json"
	"unicode/utf8"
)

// appendJSONString appends s to buf as a JSON string exactly as
// encoding/json's Marshal writes a Go string: control characters escaped
// (\b \f \n \r \t by name, the others as \u00XX), and so are <, > and &
// (HTML-safe, Marshal's default) and U+2028 and U+2029. A string that is
// not valid UTF-8 is left to json.Marshal itself: what it writes for an
// invalid byte changed with Go 1.27 (\ufffd before, the replacement
// character itself since). The lane writes every text block it answers
// this way: json.Marshal boxed the string and copied its output, two
// allocations of a served call (TestAppendJSONStringIsMarshal holds the
// two to the same bytes, under each Go release CI runs).
func appendJSONString(buf []byte, s string) []byte {
	start := len(buf)
	buf = append(buf, '"')
	done := 0 // s[:done] is in buf
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if plainJSONByte(c) {
				i++
				continue
			}
			buf = append(buf, s[done:i]...)
			buf = appendEscapedByte(buf, c)
			i++
			done = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			data, _ := json.Marshal(s) // a string always marshals
			return append(buf[:start], data...)
		case r == '\u2028':
			buf = append(append(buf, s[done:i]...), `\u2028`...)
		case r == '\u2029':
			buf = append(append(buf, s[done:i]...), `\u2029`...)
		default:
			i += size
			continue
		}
		i += size
		done = i
	}
	return append(append(buf, s[done:]...), '"')
}

// plainJSONByte reports whether the ASCII byte c is written as itself.
func plainJSONByte(c byte) bool {
	return c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
}

// appendEscapedByte appends the escape of an ASCII byte that is not plain.
func appendEscapedByte(buf []byte, c byte) []byte {
	switch c {
	case '"', '\\':
		return append(buf, '\\', c)
	case '\b':
		return append(buf, `\b`...)
	case '\f':
		return append(buf, `\f`...)
	case '\n':
		return append(buf, `\n`...)
	case '\r':
		return append(buf, `\r`...)
	case '\t':
		return append(buf, `\t`...)
	}
	const hexDigits = "0123456789abcdef"
	return append(buf, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
}
