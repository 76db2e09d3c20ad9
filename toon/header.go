package toon

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// header is a parsed array header: key[N<delim>]{fields}: (spec §6).
type header struct {
	n      int
	delim  byte
	fields []field // nil unless the array is tabular
}

// field is a tabular column name.
type field struct {
	name   string
	quoted bool
}

// entry is a line that opens an object field: a key and a colon, or a
// (possibly keyless) array header.
type entry struct {
	key    string
	quoted bool
	hasKey bool
	header *header
	rest   string // text after the colon, trimmed
}

// parseEntry reads text as a field or array header. ok is false when the
// text is neither (a primitive, or a line missing its colon); err reports
// text that is malformed whatever it was meant to be.
func parseEntry(text string, num int, strict bool) (e entry, ok bool, err error) {
	if text[0] == '"' {
		end, err := quotedEnd(text, num)
		if err != nil {
			return entry{}, false, err
		}
		key, err := unquote(text[:end], num)
		if err != nil {
			return entry{}, false, err
		}
		after := text[end:]
		if strings.HasPrefix(after, "[") {
			h, rest, _, err := parseHeader(after, num, strict)
			if err != nil {
				return entry{}, false, err
			}
			return entry{key: key, quoted: true, hasKey: true, header: h, rest: rest}, true, nil
		}
		after = strings.TrimLeft(after, " ")
		if !strings.HasPrefix(after, ":") {
			return entry{}, false, nil
		}
		return entry{key: key, quoted: true, hasKey: true, rest: trimToken(after[1:])}, true, nil
	}
	colon := strings.IndexByte(text, ':')
	bracket := strings.IndexByte(text, '[')
	if bracket >= 0 && (colon < 0 || bracket < colon) {
		h, rest, onlyColonMissing, err := parseHeader(text[bracket:], num, strict)
		key := strings.TrimRight(text[:bracket], " ")
		switch {
		case err == nil:
			return entry{key: key, hasKey: key != "", header: h, rest: rest}, true, nil
		case onlyColonMissing || strict && colon >= 0:
			return entry{}, false, err
		case colon < 0:
			return entry{}, false, nil // a primitive with brackets in it
		}
		// Non-strict: the malformed header is part of a literal key (§6).
	}
	if colon < 0 {
		return entry{}, false, nil
	}
	key := strings.TrimRight(text[:colon], " ")
	if key == "" && strict {
		return entry{}, false, syntaxErrorf(num, `empty key before ":"; write an empty key as ""`)
	}
	return entry{key: key, hasKey: true, rest: trimToken(text[colon+1:])}, true, nil
}

// parseHeader reads [N<delim>]{fields}: at the start of s and returns the
// text after the colon. onlyColonMissing tells a complete header without
// its colon from text that was never a header.
func parseHeader(s string, num int, strict bool) (h *header, rest string, onlyColonMissing bool, err error) {
	j := skipDigits(s, 1)
	digits := s[1:j]
	if digits == "" || len(digits) > 1 && digits[0] == '0' {
		return nil, "", false, syntaxErrorf(num, "invalid array length in %q: want [N] with N a non-negative integer without leading zeros", bracketText(s))
	}
	n, err := strconv.Atoi(digits)
	if err != nil {
		return nil, "", false, syntaxErrorf(num, "array length %s is too large", digits)
	}
	h = &header{n: n, delim: ','}
	i := j
	if i < len(s) && (s[i] == '\t' || s[i] == '|') {
		h.delim = s[i]
		i++
	}
	if i >= len(s) || s[i] != ']' {
		return nil, "", false, syntaxErrorf(num, "invalid array length in %q: want [N], [N|] or [N<tab>]", bracketText(s))
	}
	i++
	if i < len(s) && s[i] == '{' {
		end := unquotedIndex(s[i+1:], '}')
		if end < 0 {
			return nil, "", false, syntaxErrorf(num, "field list not closed with }")
		}
		if h.fields, err = parseFields(s[i+1:i+1+end], h.delim, num, strict); err != nil {
			return nil, "", false, err
		}
		i += end + 2
	}
	switch {
	case i == len(s):
		return nil, "", true, syntaxErrorf(num, `missing ":" after array header`)
	case s[i] != ':':
		return nil, "", false, syntaxErrorf(num, `unexpected %q after array header; the header must end with ":"`, s[i:])
	}
	return h, strings.Trim(s[i+1:], " "), false, nil
}

func bracketText(s string) string {
	if i := strings.IndexByte(s, ']'); i >= 0 {
		return s[:i+1]
	}
	return s
}

// parseFields splits a tabular field list on the header's delimiter.
func parseFields(list string, delim byte, num int, strict bool) ([]field, error) {
	toks := splitCells(list, delim)
	fields := make([]field, len(toks))
	for i, tok := range toks {
		tok = trimCell(tok, delim)
		if strings.HasPrefix(tok, `"`) {
			name, err := unquoteToken(tok, num)
			if err != nil {
				return nil, err
			}
			fields[i] = field{name: name, quoted: true}
			continue
		}
		if strict {
			if tok == "" {
				return nil, syntaxErrorf(num, "empty field name in tabular header")
			}
			if k := strings.IndexAny(tok, ",|\t"); k >= 0 {
				return nil, syntaxErrorf(num, "field %q contains %q but the header declares %s as delimiter; use the same delimiter in [] and {}", tok, tok[k], delimName(delim))
			}
		}
		fields[i] = field{name: tok}
	}
	return fields, nil
}

func delimName(d byte) string {
	switch d {
	case '\t':
		return "tab"
	case '|':
		return "pipe"
	}
	return "comma"
}

// splitCells splits s on delim outside quoted strings (spec §11.2). The
// cells keep their surrounding spaces.
func splitCells(s string, delim byte) []string {
	var cells []string
	start, inQuotes := 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && inQuotes:
			i++
		case c == '"':
			inQuotes = !inQuotes
		case c == delim && !inQuotes:
			cells = append(cells, s[start:i])
			start = i + 1
		}
	}
	return append(cells, s[start:])
}

// unquotedIndex returns the index of the first c outside quotes, or -1.
func unquotedIndex(s string, c byte) int {
	inQuotes := false
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && inQuotes:
			i++
		case s[i] == '"':
			inQuotes = !inQuotes
		case s[i] == c && !inQuotes:
			return i
		}
	}
	return -1
}

// isRow tells a tabular row from a key-value line at row depth: a row has
// no unquoted colon, or its first unquoted delimiter comes before the
// first unquoted colon (spec §9.3).
func isRow(text string, delim byte) bool {
	inQuotes := false
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case c == '\\' && inQuotes:
			i++
		case c == '"':
			inQuotes = !inQuotes
		case inQuotes:
		case c == delim:
			return true
		case c == ':':
			return false
		}
	}
	return true
}

// trimCell trims the spaces around a cell, and tabs unless tab is the
// delimiter.
func trimCell(s string, delim byte) string {
	if delim == '\t' {
		return strings.Trim(s, " ")
	}
	return strings.Trim(s, " \t")
}

func trimToken(s string) string { return strings.Trim(s, " \t") }

// parsePrimitive types a value token (spec §4): a quoted string, true,
// false, null, a number, or else an unquoted string.
func parsePrimitive(tok string, num int) (value, error) {
	if strings.HasPrefix(tok, `"`) {
		s, err := unquoteToken(tok, num)
		return stringValue(s), err
	}
	switch tok {
	case "true":
		return boolValue(true), nil
	case "false":
		return boolValue(false), nil
	case "null":
		return value{}, nil
	}
	if isNumber(tok) {
		return value{kind: kindNumber, str: canonicalNumber(tok)}, nil
	}
	return stringValue(tok), nil
}

// unquoteToken decodes a token that must be exactly one quoted string.
func unquoteToken(tok string, num int) (string, error) {
	end, err := quotedEnd(tok, num)
	if err != nil {
		return "", err
	}
	if end != len(tok) {
		return "", syntaxErrorf(num, "unexpected %q after quoted string", tok[end:])
	}
	return unquote(tok, num)
}

// quotedEnd returns the index just past the closing quote of the quoted
// string that starts s.
func quotedEnd(s string, num int) (int, error) {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i + 1, nil
		}
	}
	return 0, syntaxErrorf(num, "unterminated string: missing closing quote")
}

// unquote decodes a quoted string (quotes included) with the escapes of
// spec §7.1, and only those.
func unquote(q string, num int) (string, error) {
	s := q[1 : len(q)-1]
	i := 0
	for i < len(s) && s[i] != '\\' && (s[i] >= 0x20 || s[i] == '\t') {
		i++
	}
	if i == len(s) {
		return s, nil
	}
	b := make([]byte, 0, len(s))
	b = append(b, s[:i]...)
	for i < len(s) {
		c := s[i]
		switch {
		case c < 0x20 && c != '\t':
			return "", syntaxErrorf(num, "control character U+%04X in quoted string; escape it", c)
		case c != '\\':
			b = append(b, c)
			i++
			continue
		case i+1 == len(s):
			return "", syntaxErrorf(num, "unterminated escape at end of string")
		}
		switch e := s[i+1]; e {
		case '\\', '"':
			b = append(b, e)
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			if i+6 > len(s) {
				return "", syntaxErrorf(num, `\u escape needs four hex digits`)
			}
			r, err := strconv.ParseUint(s[i+2:i+6], 16, 32)
			if err != nil {
				return "", syntaxErrorf(num, `\u escape needs four hex digits, got %q`, s[i+2:i+6])
			}
			if r >= 0xD800 && r <= 0xDFFF {
				return "", syntaxErrorf(num, `\u%s is a UTF-16 surrogate; write the character itself`, s[i+2:i+6])
			}
			b = utf8.AppendRune(b, rune(r))
			i += 6
			continue
		default:
			return "", syntaxErrorf(num, `invalid escape \%c; valid escapes are \\ \" \n \r \t \uXXXX`, e)
		}
		i += 2
	}
	return string(b), nil
}
