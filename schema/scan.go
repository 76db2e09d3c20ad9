package schema

import (
	"fmt"
	"strings"
	"time"
)

// scanner is the pre-scan: one pass over the raw arguments that checks, before
// anything is decoded, everything encoding/json would accept silently or
// reject vaguely. It never allocates unless it has something to report.
//
// Fatal problems (malformed JSON, depth, not an object) stop it at once:
// what follows cannot be trusted. Every other problem is recorded and the
// scan goes on, so the model learns about all of them in one reply.
// inlineSegs is how many path segments a scan holds without allocating.
const inlineSegs = 8

type scanner struct {
	data     []byte
	pos      int
	depth    int
	maxDepth int
	skip     string            // a top-level key accepted and ignored (DecodeOptions.Skip)
	quiet    int               // > 0 while skipping a value that was already reported
	hush     int               // > 0 while scanning a field tagged redact (echo.go)
	msgs     *Messages         // the texts of every issue; never nil
	custom   map[string]string // the texts of the Validator's own rules

	edits []edit // what the decoder must read differently (edits.go)

	fatal    bool
	fatalMsg string
	issues   []Issue
	more     int      // issues found past msgs.MaxIssues
	covered  []string // paths whose value is already explained; validator echoes are dropped

	// The JSON path of the value being scanned, rendered only for an issue.
	// The first segs live in the scanner itself, so a scan of ordinary depth
	// needs no allocation (frames linked through the call stack would escape).
	// Few: the scanner sits on the stack of the goroutine serving the call,
	// often a fresh one, and a large frame would make every call copy the
	// stack to grow it. Deeper documents spill into extra.
	segs  [inlineSegs]seg
	extra []seg
	nseg  int

	// Lookup mode.
	find             string
	finding          bool
	found, foundDup  bool
	valStart, valEnd int
}

var anyArray = &shape{kind: kindArray, elem: anyShape}

// scanTop scans a whole document whose top-level value must be an object.
func (s *scanner) scanTop(root *shape) {
	s.ws()
	if s.pos >= len(s.data) {
		s.fail(s.msgs.ReasonEOF)
		return
	}
	if c := s.data[s.pos]; c != '{' {
		if k := startKind(c); k != "" {
			s.fatal = true
			s.fatalMsg = fmt.Sprintf(s.msgs.NotObject, k)
			return
		}
		s.failChar()
		return
	}
	if root.kind == kindObject {
		s.object(root)
	} else {
		s.freeObject(anyShape)
	}
	if s.fatal {
		return
	}
	s.ws()
	if s.pos < len(s.data) {
		s.fail(s.msgs.ReasonTrailing)
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

// value scans one value that must fit sh. null is handled by the callers,
// which know whether it means "absent" or is an element.
func (s *scanner) value(sh *shape) {
	if s.pos >= len(s.data) {
		s.fail(s.msgs.ReasonEOF)
		return
	}
	switch c := s.data[s.pos]; {
	case c == '{':
		switch sh.kind {
		case kindObject:
			s.object(sh)
		case kindMap:
			s.freeObject(sh.elem)
		case kindAny:
			s.freeObject(anyShape)
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
			switch {
			case bad:
				s.valueIssue(s.msgs.InvalidUTF8)
			case sh.enum != nil:
				if msg := sh.enumIssue(s.data[start:end], esc, s.msgs); msg != "" {
					s.valueIssue(msg)
				}
			case sh.zero != nil && start == end:
				s.zeroIssue(sh)
			}
		case kindTime:
			var t time.Time
			switch {
			case bad:
				s.valueIssue(s.msgs.InvalidUTF8)
			case esc || t.UnmarshalJSON(s.data[start-1:end+1]) != nil:
				// Time.UnmarshalJSON is what json.Unmarshal will call; it
				// reads the raw bytes and so refuses escapes too.
				s.valueIssue(s.msgs.DateTime)
			}
		default:
			s.mismatch(sh, "string")
		}
	case c == 't':
		if s.literal("true") && sh.kind != kindBool && sh.kind != kindAny {
			s.mismatch(sh, "boolean")
		}
	case c == 'f':
		if s.literal("false") {
			switch {
			case sh.kind != kindBool && sh.kind != kindAny:
				s.mismatch(sh, "boolean")
			case sh.zero != nil:
				s.zeroIssue(sh)
			}
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
		s.fail(s.msgs.ReasonEOF)
		return
	}
	if s.data[s.pos] != '"' {
		if startKind(s.data[s.pos]) != "" {
			s.fail(s.msgs.ReasonKeyString)
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
// no duplicates, every required key present (null is refused, and a
// required key sent as null is missing), and the defaults of absent keys
// recorded as edits.
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
	members := 0
	s.ws()
	if s.peek() == '}' {
		s.pos++
	} else {
		for {
			start, end, esc, bad, ok := s.member()
			if !ok {
				return
			}
			members++
			key := s.data[start:end]
			if esc {
				key = unescape(key)
			}
			switch i, known := sh.index[string(key)]; {
			case bad:
				s.objIssue(s.msgs.InvalidUTF8Key)
				s.skipValue()
			case s.depth == 1 && s.skip != "" && string(key) == s.skip:
				if skipSeen {
					s.objIssue(fmt.Sprintf(s.msgs.DuplicateField, quoteKey(key)))
				}
				skipSeen = true
				s.skipValue()
			case !known:
				if s.quiet == 0 {
					if unknown == nil {
						unknown = &unknownKeys{}
					}
					unknown.add(key)
					for j := range sh.fields {
						if strings.EqualFold(sh.fields[j].name, string(key)) {
							// encoding/json will fill this field from the
							// unknown key: what the validator says of it is noise.
							s.cover(sh.fields[j].name)
						}
					}
				}
				s.skipValue()
			case seen.has(i):
				s.objIssue(fmt.Sprintf(s.msgs.DuplicateField, quoteKey(key)))
				s.cover(sh.fields[i].name) // the decoder keeps the last one, unreported
				s.skipValue()
			default:
				seen.set(i)
				if s.peek() == 'n' && sh.fields[i].shape.kind != kindAny {
					// null is refused, not read as absent: the schema does
					// not allow it. A required property sent as null is
					// reported as missing, below.
					if s.literal("null") && !sh.fields[i].required {
						s.push(seg{kind: frameField, name: sh.fields[i].name})
						s.valueIssue(s.msgs.Null)
						s.pop()
					}
				} else {
					present.set(i)
					s.push(seg{kind: frameField, name: sh.fields[i].name})
					s.fieldValue(&sh.fields[i])
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
	for _, i := range sh.defaults {
		if !seen.has(i) {
			// Absent: the default goes in before the closing brace.
			s.noteEdit(edit{start: s.pos - 1, end: s.pos - 1, comma: members > 0, text: sh.fields[i].def})
			members++
		}
	}
	if unknown != nil {
		s.objIssue(unknown.message(sh, s.msgs))
	}
	if sh.anyReq && (present.big != nil || present.small&sh.reqMask != sh.reqMask) {
		for i := range sh.fields {
			if sh.fields[i].required && !present.has(i) {
				s.push(seg{kind: frameField, name: sh.fields[i].name})
				s.valueIssue(s.msgs.Required)
				s.pop()
			}
		}
	}
}

// freeObject scans an object with free-form keys (a map, or a value of an
// any field), whose values must fit elem. Duplicate keys are still refused.
func (s *scanner) freeObject(elem *shape) {
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
			s.objIssue(s.msgs.InvalidUTF8Key)
			s.skipValue()
		case keys.dup(s.data, sp):
			s.foundDup = s.foundDup || target
			s.objIssue(fmt.Sprintf(s.msgs.DuplicateField, quoteKey([]byte(keyString(s.data[start:end], esc)))))
			s.skipValue()
		default:
			if target {
				s.found, s.valStart = true, s.pos
			}
			s.push(seg{kind: frameKey, start: start, end: end, esc: esc})
			if s.peek() == 'n' {
				if s.literal("null") && elem.kind != kindAny {
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
			s.valueIssue(fmt.Sprintf(s.msgs.MaxArray, sh.fixedLen))
		}
		s.push(seg{kind: frameIndex, start: i})
		if s.peek() == 'n' {
			if s.literal("null") && sh.elem.kind != kindAny {
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
