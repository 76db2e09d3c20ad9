package schema

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

// How the pre-scan records what it finds: fatal errors stop it, issues accumulate.

func (s *scanner) fail(reason string) {
	if s.fatal {
		return
	}
	s.fatal = true
	s.fatalMsg = fmt.Sprintf(s.msgs.InvalidJSON, reason, s.pos)
}

// failChar reports the byte at the current position as unexpected.
func (s *scanner) failChar() {
	if s.pos >= len(s.data) {
		s.fail(s.msgs.ReasonEOF)
		return
	}
	c := s.data[s.pos]
	var q string
	if c < utf8.RuneSelf {
		q = strconv.QuoteRune(rune(c))
	} else {
		q = fmt.Sprintf("byte 0x%02x", c)
	}
	if s.hush > 0 {
		q = RedactedEcho
	}
	s.fail(fmt.Sprintf(s.msgs.ReasonChar, q))
}

func (s *scanner) enter() bool {
	s.depth++
	if s.depth > s.maxDepth {
		s.fatal = true
		s.fatalMsg = fmt.Sprintf(s.msgs.TooDeep, s.maxDepth)
		return false
	}
	return true
}

// valueIssue records a problem with the current value; its path then
// counts as explained.
func (s *scanner) valueIssue(msg string) {
	if s.quiet > 0 || s.full() {
		return
	}
	p := s.path()
	s.issues = append(s.issues, Issue{Path: p, Message: msg})
	s.covered = append(s.covered, p)
}

// objIssue records a problem with the members of the current object.
func (s *scanner) objIssue(msg string) {
	if s.quiet > 0 || s.full() {
		return
	}
	s.issues = append(s.issues, Issue{Path: s.path(), Message: msg})
}

// full reports whether msgs.MaxIssues are recorded already, counting the one
// that will not be: an input with a million bad elements gets a short
// answer, not a million lines.
func (s *scanner) full() bool {
	if len(s.issues) < s.msgs.maxIssues() {
		return false
	}
	s.more++
	return true
}

func (s *scanner) mismatch(sh *shape, got string) {
	if s.quiet > 0 {
		return
	}
	s.valueIssue(fmt.Sprintf(s.msgs.ExpectedType, sh.kind.jsonType(), got))
}

// cover marks field name of the current object as explained without
// reporting anything: the decoder will not hold what the model meant there.
func (s *scanner) cover(name string) {
	if s.quiet > 0 {
		return
	}
	s.push(seg{kind: frameField, name: name})
	s.covered = append(s.covered, s.path())
	s.pop()
}
