package toon

import (
	"unicode"
	"unicode/utf8"
)

// needsQuotes reports whether the string s must be quoted to decode back as
// the same string where delim splits values (spec §7.2). Every rule guards
// a misreading: empty and padded strings would be trimmed, literals and
// numeric-looking text would change type, and structural characters would
// be taken for keys, headers, list markers or cell boundaries.
func needsQuotes(s string, delim byte) bool {
	if s == "" || s[0] == '-' {
		return true
	}
	switch s {
	case "true", "false", "null":
		return true
	}
	if hasOuterSpace(s) || looksNumeric(s) {
		return true
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case ':', '"', '\\', '[', ']', '{', '}':
			return true
		default:
			if c < 0x20 || c == delim {
				return true
			}
		}
	}
	return false
}

// hasOuterSpace reports leading or trailing white space, Unicode's notion
// of it, which is wider than what the decoder trims: quoting more than
// needed costs two bytes, quoting less would lose data in some reader.
func hasOuterSpace(s string) bool {
	first, _ := utf8.DecodeRuneInString(s)
	last, _ := utf8.DecodeLastRuneInString(s)
	return isSpaceRune(first) || isSpaceRune(last)
}

func isSpaceRune(r rune) bool { return unicode.IsSpace(r) || r == '\uFEFF' }

// looksNumeric matches /^-?\d+(?:\.\d+)?(?:e[+-]?\d+)?$/i, the spec's test
// for strings that a reader could take for numbers, leading zeros included.
func looksNumeric(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	j := skipDigits(s, i)
	if j == i {
		return false
	}
	i = j
	if i < len(s) && s[i] == '.' {
		j = skipDigits(s, i+1)
		if j == i+1 {
			return false
		}
		i = j
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		j = skipDigits(s, i)
		if j == i {
			return false
		}
		i = j
	}
	return i == len(s)
}

// isBareKey reports whether a key may be written unquoted:
// ^[A-Za-z_][A-Za-z0-9_.]*$ (spec §7.3).
func isBareKey(s string) bool {
	if s == "" || !isIdentStart(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isIdentByte(s[i]) && s[i] != '.' {
			return false
		}
	}
	return true
}

// isIdentifier reports whether s is an IdentifierSegment,
// ^[A-Za-z_][A-Za-z0-9_]*$, the only segments folding and expansion touch
// (spec §1.9).
func isIdentifier(s string) bool {
	if s == "" || !isIdentStart(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isIdentByte(s[i]) {
			return false
		}
	}
	return true
}

func isIdentStart(c byte) bool {
	return c == '_' || (c|0x20) >= 'a' && (c|0x20) <= 'z'
}

func isIdentByte(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

// appendKey writes an object key or field name, quoted only when needed.
func appendKey(dst []byte, key string) []byte {
	if isBareKey(key) {
		return append(dst, key...)
	}
	return appendQuoted(dst, key)
}

// appendString writes a string value, quoted only when needed.
func appendString(dst []byte, s string, delim byte) []byte {
	if needsQuotes(s, delim) {
		return appendQuoted(dst, s)
	}
	return appendValidUTF8(dst, s)
}

const hexDigits = "0123456789abcdef"

// appendQuoted writes s between double quotes with the escapes of spec
// §7.1 and nothing else: \\ \" \n \r \t, \u00xx for other controls.
// Invalid UTF-8 becomes U+FFFD, as encoding/json does, so the output is
// always valid UTF-8.
func appendQuoted(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r != utf8.RuneError || size != 1 {
				i += size
				continue
			}
			dst = append(dst, s[start:i]...)
			dst = append(dst, "\uFFFD"...)
			i++
			start = i
			continue
		}
		dst = appendEscape(append(dst, s[start:i]...), c)
		i++
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// appendValidUTF8 writes s with each invalid byte replaced by U+FFFD.
func appendValidUTF8(dst []byte, s string) []byte {
	if utf8.ValidString(s) {
		return append(dst, s...)
	}
	for _, r := range s {
		dst = utf8.AppendRune(dst, r)
	}
	return dst
}

// appendEscape appends the escape of ASCII byte c, one that cannot stand
// as itself in a quoted string: the quote, the backslash, or a control
// character. TOON's and JSON's quoted strings escape them alike.
func appendEscape(dst []byte, c byte) []byte {
	switch c {
	case '"', '\\':
		return append(dst, '\\', c)
	case '\n':
		return append(dst, '\\', 'n')
	case '\r':
		return append(dst, '\\', 'r')
	case '\t':
		return append(dst, '\\', 't')
	}
	return append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
}
