package schema

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// scanner is the pre-scan: one pass over the raw arguments that checks, before
// anything is decoded, everything encoding/json would accept silently or
// reject vaguely. It never allocates unless it has something to report.
//
// Fatal problems (malformed JSON, depth, not an object) stop it at once:
// what follows cannot be trusted. Every other problem is recorded and the
// scan goes on, so the model learns about all of them in one reply.
type scanner struct {
	data     []byte
	pos      int
	depth    int
	maxDepth int
	skip     string // a top-level key accepted and ignored (Decode's Skip)
	quiet    int    // > 0 while skipping a value that was already reported

	fatal    bool
	fatalMsg string
	issues   []Issue
	covered  []string // paths whose value is already explained; validator echoes are dropped

	// The JSON path of the value being scanned, rendered only for an issue.
	// The first segs live in the scanner itself, so a scan of ordinary depth
	// needs no allocation (frames linked through the call stack would escape).
	segs  [DefaultMaxDepth]seg
	extra []seg
	nseg  int

	// Lookup mode.
	find             string
	finding          bool
	found, foundDup  bool
	valStart, valEnd int
}

type frameKind uint8

const (
	frameField frameKind = iota
	frameIndex
	frameKey
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

var anyArray = &shape{kind: kindArray, elem: anyShape, elemNullable: true}

// scanTop scans a whole document whose top-level value must be an object.
func (s *scanner) scanTop(root *shape) {
	s.ws()
	if s.pos >= len(s.data) {
		s.fail(ReasonEOF)
		return
	}
	if c := s.data[s.pos]; c != '{' {
		if k := startKind(c); k != "" {
			s.fatal = true
			s.fatalMsg = fmt.Sprintf(MsgNotObject, k)
			return
		}
		s.failChar()
		return
	}
	if root.kind == kindObject {
		s.object(root)
	} else {
		s.freeObject(anyShape, true)
	}
	if s.fatal {
		return
	}
	s.ws()
	if s.pos < len(s.data) {
		s.fail(ReasonTrailing)
	}
}

// startKind names the JSON kind a value starting with c would have.
func startKind(c byte) string {
	switch {
	case c == '[':
		return "array"
	case c == '"':
		return "string"
	case c == 't' || c == 'f':
		return "boolean"
	case c == 'n':
		return "null"
	case c == '-' || (c >= '0' && c <= '9'):
		return "number"
	}
	return ""
}

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

func (s *scanner) fail(reason string) {
	if s.fatal {
		return
	}
	s.fatal = true
	s.fatalMsg = fmt.Sprintf(MsgInvalidJSON, reason, s.pos)
}

// failChar reports the byte at the current position as unexpected.
func (s *scanner) failChar() {
	if s.pos >= len(s.data) {
		s.fail(ReasonEOF)
		return
	}
	c := s.data[s.pos]
	var q string
	if c < utf8.RuneSelf {
		q = strconv.QuoteRune(rune(c))
	} else {
		q = fmt.Sprintf("byte 0x%02x", c)
	}
	s.fail(fmt.Sprintf(ReasonChar, q))
}

func (s *scanner) enter() bool {
	s.depth++
	if s.depth > s.maxDepth {
		s.fatal = true
		s.fatalMsg = fmt.Sprintf(MsgTooDeep, s.maxDepth)
		return false
	}
	return true
}

// valueIssue records a problem with the current value; its path then
// counts as explained.
func (s *scanner) valueIssue(msg string) {
	if s.quiet > 0 {
		return
	}
	p := s.path()
	s.issues = append(s.issues, Issue{Path: p, Message: msg})
	s.covered = append(s.covered, p)
}

// objIssue records a problem with the members of the current object.
func (s *scanner) objIssue(msg string) {
	if s.quiet > 0 {
		return
	}
	s.issues = append(s.issues, Issue{Path: s.path(), Message: msg})
}

func (s *scanner) mismatch(sh *shape, got string) {
	if s.quiet > 0 {
		return
	}
	s.valueIssue(fmt.Sprintf(MsgExpectedType, sh.kind.jsonType(), got))
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

// value scans one value that must fit sh. null is handled by the callers,
// which know whether it means "absent" or is an element.
func (s *scanner) value(sh *shape) {
	if s.pos >= len(s.data) {
		s.fail(ReasonEOF)
		return
	}
	switch c := s.data[s.pos]; {
	case c == '{':
		switch sh.kind {
		case kindObject:
			s.object(sh)
		case kindMap:
			s.freeObject(sh.elem, sh.elemNullable)
		case kindAny:
			s.freeObject(anyShape, true)
		default:
			s.mismatch(sh, "object")
			s.skipValue()
		}
	case c == '[':
		switch sh.kind {
		case kindArray:
			s.array(sh)
		case kindAny:
			s.array(anyArray)
		default:
			s.mismatch(sh, "array")
			s.skipValue()
		}
	case c == '"':
		start, end, esc, bad := s.str()
		if s.fatal {
			return
		}
		switch sh.kind {
		case kindString, kindAny:
			if bad {
				s.valueIssue(MsgInvalidUTF8)
			}
		case kindTime:
			var t time.Time
			switch {
			case bad:
				s.valueIssue(MsgInvalidUTF8)
			case esc || t.UnmarshalJSON(s.data[start-1:end+1]) != nil:
				// Time.UnmarshalJSON is what json.Unmarshal will call; it
				// reads the raw bytes and so refuses escapes too.
				s.valueIssue(MsgDateTime)
			}
		default:
			s.mismatch(sh, "string")
		}
	case c == 't':
		if s.literal("true") && sh.kind != kindBool && sh.kind != kindAny {
			s.mismatch(sh, "boolean")
		}
	case c == 'f':
		if s.literal("false") && sh.kind != kindBool && sh.kind != kindAny {
			s.mismatch(sh, "boolean")
		}
	case c == 'n':
		if s.literal("null") && sh.kind != kindAny {
			s.mismatch(sh, "null")
		}
	case c == '-' || (c >= '0' && c <= '9'):
		s.numberValue(sh)
	default:
		s.failChar()
	}
}

// skipValue scans a value for well-formedness only, reporting nothing but
// fatal problems: it was already reported (unknown field, duplicate, wrong kind).
func (s *scanner) skipValue() {
	s.quiet++
	s.value(anyShape)
	s.quiet--
}

// member reads `"key" :` and returns the key's span. ok is false on a fatal error.
func (s *scanner) member() (start, end int, esc, bad, ok bool) {
	s.ws()
	if s.pos >= len(s.data) {
		s.fail(ReasonEOF)
		return
	}
	if s.data[s.pos] != '"' {
		if startKind(s.data[s.pos]) != "" {
			s.fail(ReasonKeyString)
		} else {
			s.failChar()
		}
		return
	}
	start, end, esc, bad = s.str()
	if s.fatal {
		return
	}
	s.ws()
	if s.pos >= len(s.data) || s.data[s.pos] != ':' {
		s.failChar()
		return
	}
	s.pos++
	s.ws()
	return start, end, esc, bad, true
}

// next consumes the separator after a member or element: true to go on,
// false at the closing byte or on a fatal error.
func (s *scanner) next(closing byte) bool {
	s.ws()
	if s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ',':
			s.pos++
			return true
		case closing:
			s.pos++
			return false
		}
	}
	s.failChar()
	return false
}

// object scans an object that must fit struct shape sh: exact key names,
// no duplicates, every required key present (null counts as absent).
func (s *scanner) object(sh *shape) {
	if !s.enter() {
		return
	}
	s.pos++
	var seen, present bitset
	if len(sh.fields) > 64 {
		seen.big = make([]uint64, (len(sh.fields)+63)/64)
		present.big = make([]uint64, len(seen.big))
	}
	var unknown *unknownKeys
	skipSeen := false
	s.ws()
	if s.peek() == '}' {
		s.pos++
	} else {
		for {
			start, end, esc, bad, ok := s.member()
			if !ok {
				return
			}
			key := s.data[start:end]
			if esc {
				key = unescape(key)
			}
			switch i, known := sh.index[string(key)]; {
			case bad:
				s.objIssue(MsgInvalidUTF8Key)
				s.skipValue()
			case s.depth == 1 && s.skip != "" && string(key) == s.skip:
				if skipSeen {
					s.objIssue(fmt.Sprintf(MsgDuplicateField, quoteKey(key)))
				}
				skipSeen = true
				s.skipValue()
			case !known:
				if s.quiet == 0 {
					if unknown == nil {
						unknown = &unknownKeys{}
					}
					unknown.add(key)
				}
				s.skipValue()
			case seen.has(i):
				s.objIssue(fmt.Sprintf(MsgDuplicateField, quoteKey(key)))
				s.skipValue()
			default:
				seen.set(i)
				if s.peek() == 'n' {
					s.literal("null") // null is the same as absent
				} else {
					present.set(i)
					s.push(seg{kind: frameField, name: sh.fields[i].name})
					s.value(sh.fields[i].shape)
					s.pop()
				}
			}
			if s.fatal || !s.next('}') {
				break
			}
		}
		if s.fatal {
			return
		}
	}
	s.depth--
	if unknown != nil {
		s.objIssue(unknown.message(sh))
	}
	if sh.anyReq && (present.big != nil || present.small&sh.reqMask != sh.reqMask) {
		for i := range sh.fields {
			if sh.fields[i].required && !present.has(i) {
				s.push(seg{kind: frameField, name: sh.fields[i].name})
				s.valueIssue(MsgRequired)
				s.pop()
			}
		}
	}
}

// freeObject scans an object with free-form keys (a map, or a value of an
// any field), whose values must fit elem. Duplicate keys are still refused.
func (s *scanner) freeObject(elem *shape, elemNullable bool) {
	if !s.enter() {
		return
	}
	s.pos++
	var keys keyTracker
	s.ws()
	if s.peek() == '}' {
		s.pos++
		s.depth--
		return
	}
	for {
		start, end, esc, bad, ok := s.member()
		if !ok {
			return
		}
		sp := keySpan{start: start, end: end, esc: esc}
		target := s.finding && s.depth == 1 && keyEquals(s.data, sp, s.find)
		switch {
		case bad:
			s.objIssue(MsgInvalidUTF8Key)
			s.skipValue()
		case keys.dup(s.data, sp):
			s.foundDup = s.foundDup || target
			s.objIssue(fmt.Sprintf(MsgDuplicateField, quoteKey([]byte(keyString(s.data[start:end], esc)))))
			s.skipValue()
		default:
			if target {
				s.found, s.valStart = true, s.pos
			}
			s.push(seg{kind: frameKey, start: start, end: end, esc: esc})
			if s.peek() == 'n' {
				if s.literal("null") && !elemNullable && elem.kind != kindAny {
					s.mismatch(elem, "null")
				}
			} else {
				s.value(elem)
			}
			s.pop()
			if target {
				s.valEnd = s.pos
			}
		}
		if s.fatal || !s.next('}') {
			break
		}
	}
	if !s.fatal {
		s.depth--
	}
}

// array scans an array whose elements must fit sh.elem.
func (s *scanner) array(sh *shape) {
	if !s.enter() {
		return
	}
	s.pos++
	s.ws()
	if s.peek() == ']' {
		s.pos++
		s.depth--
		return
	}
	for i := 0; ; i++ {
		s.ws()
		if sh.fixed && i == sh.fixedLen {
			s.valueIssue(fmt.Sprintf(MsgMaxArray, sh.fixedLen))
		}
		s.push(seg{kind: frameIndex, start: i})
		if s.peek() == 'n' {
			if s.literal("null") && !sh.elemNullable && sh.elem.kind != kindAny {
				s.mismatch(sh.elem, "null")
			}
		} else {
			s.value(sh.elem)
		}
		s.pop()
		if s.fatal || !s.next(']') {
			break
		}
	}
	if !s.fatal {
		s.depth--
	}
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
	for s.pos < len(data) {
		c := data[s.pos]
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
				s.pos++
			case 'u':
				s.pos++
				for j := 0; j < 4; j++ {
					if s.pos >= len(data) {
						s.fail(ReasonEOF)
						return
					}
					if !isHex(data[s.pos]) {
						s.fail(ReasonEscape)
						return
					}
					s.pos++
				}
			default:
				s.fail(ReasonEscape)
				return
			}
		case c < 0x20:
			s.fail(ReasonControl)
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
	s.fail(ReasonEOF)
	return
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
		s.fail(ReasonEOF)
		return
	case data[s.pos] == '0':
		s.pos++
	case data[s.pos] >= '1' && data[s.pos] <= '9':
		for s.pos < len(data) && data[s.pos] >= '0' && data[s.pos] <= '9' {
			s.pos++
		}
	default:
		s.fail(ReasonNumber)
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
		s.fail(ReasonNumber)
		return false
	}
	return true
}

// validNumber reports whether b is exactly one JSON number.
func validNumber(b []byte) bool {
	s := scanner{data: b}
	if len(b) == 0 || (b[0] != '-' && (b[0] < '0' || b[0] > '9')) {
		return false
	}
	_, ok := s.number()
	return ok && s.pos == len(b)
}

// numberValue scans a number and checks that the field's Go type can hold it,
// as encoding/json would (and then some: it says why).
func (s *scanner) numberValue(sh *shape) {
	start := s.pos
	isInt, ok := s.number()
	if !ok {
		return
	}
	lit := s.data[start:s.pos]
	switch sh.kind {
	case kindInt, kindUint:
		if !isInt {
			s.mismatch(sh, "number")
			return
		}
		if !intFits(lit, sh) {
			lo := "0"
			hi := strconv.FormatUint(sh.hi, 10)
			if sh.kind == kindInt {
				lo = strconv.FormatInt(sh.lo, 10)
			}
			s.valueIssue(fmt.Sprintf(MsgIntRange, truncate(string(lit), maxEcho), sh.goType, lo, hi))
		}
	case kindFloat:
		if !floatFits(lit, sh.bits) {
			s.valueIssue(fmt.Sprintf(MsgFloatRange, truncate(string(lit), maxEcho), sh.goType))
		}
	case kindAny:
		if !floatFits(lit, 64) { // interface{} holds numbers as float64
			s.valueIssue(fmt.Sprintf(MsgFloatRange, truncate(string(lit), maxEcho), "float64"))
		}
	default:
		s.mismatch(sh, "number")
	}
}

// intFits reports whether integer literal lit is within sh's range.
func intFits(lit []byte, sh *shape) bool {
	neg := lit[0] == '-'
	if neg {
		if sh.kind == kindUint {
			return false // encoding/json refuses even -0 for unsigned types
		}
		lit = lit[1:]
	}
	var mag uint64
	for _, c := range lit {
		d := uint64(c - '0')
		if mag > (1<<64-1-d)/10 {
			return false
		}
		mag = mag*10 + d
	}
	if neg {
		return mag <= uint64(-(sh.lo+1))+1
	}
	return mag <= sh.hi
}

// floatFits reports whether strconv.ParseFloat, which encoding/json uses,
// accepts lit at the given size. Short plain literals cannot overflow.
func floatFits(lit []byte, bits int) bool {
	plain := bytes.IndexAny(lit, "eE") < 0
	if plain && ((bits == 64 && len(lit) < 300) || (bits == 32 && len(lit) < 38)) {
		return true
	}
	_, err := strconv.ParseFloat(unsafe.String(unsafe.SliceData(lit), len(lit)), bits)
	return err == nil
}

// bitset marks struct fields by position; up to 64 without allocating.
type bitset struct {
	small uint64
	big   []uint64
}

func (b *bitset) set(i int) {
	if b.big != nil {
		b.big[i/64] |= 1 << (i % 64)
		return
	}
	b.small |= 1 << i
}

func (b *bitset) has(i int) bool {
	if b.big != nil {
		return b.big[i/64]&(1<<(i%64)) != 0
	}
	return b.small&(1<<i) != 0
}

type keySpan struct {
	start, end int
	esc        bool
}

// keyTracker detects duplicate keys in a free-form object: the first keys are
// compared in place, without allocating; a large object moves to a map.
type keyTracker struct {
	n        int
	small    [16]keySpan
	overflow map[string]struct{}
}

func (k *keyTracker) dup(data []byte, sp keySpan) bool {
	if k.overflow != nil {
		key := keyString(data[sp.start:sp.end], sp.esc)
		_, dup := k.overflow[key]
		k.overflow[key] = struct{}{}
		return dup
	}
	for i := 0; i < k.n; i++ {
		if spansEqual(data, k.small[i], sp) {
			return true
		}
	}
	if k.n < len(k.small) {
		k.small[k.n] = sp
		k.n++
		return false
	}
	k.overflow = make(map[string]struct{}, 2*len(k.small))
	for _, old := range k.small {
		k.overflow[keyString(data[old.start:old.end], old.esc)] = struct{}{}
	}
	k.overflow[keyString(data[sp.start:sp.end], sp.esc)] = struct{}{}
	return false
}

func spansEqual(data []byte, a, b keySpan) bool {
	ka, kb := data[a.start:a.end], data[b.start:b.end]
	if !a.esc && !b.esc {
		return bytes.Equal(ka, kb)
	}
	return bytes.Equal(unescape(ka), unescape(kb))
}

func keyEquals(data []byte, sp keySpan, want string) bool {
	k := data[sp.start:sp.end]
	if sp.esc {
		k = unescape(k)
	}
	return string(k) == want
}

func keyString(raw []byte, esc bool) string {
	if esc {
		return string(unescape(raw))
	}
	return string(raw)
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
