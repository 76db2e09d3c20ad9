package schema

import (
	"bytes"
	"fmt"
	"strconv"
	"unsafe"
)

// Number checks: what a field's Go type can hold, as encoding/json decides it.

// numberValue scans a number and checks that the field's Go type can hold it,
// as encoding/json would (and then some: it says why). An integer field
// takes any whole number, 7.0 and 1e2 included, as JSON Schema does: such a
// literal is recorded as an edit to its canonical digits.
func (s *scanner) numberValue(sh *shape) {
	start := s.pos
	isInt, ok := s.number()
	if !ok {
		return
	}
	lit := s.data[start:s.pos]
	switch sh.kind {
	case kindInt, kindUint:
		canon := lit
		if !isInt || (lit[0] == '-' && (sh.kind == kindUint || (len(lit) == 2 && lit[1] == '0'))) {
			// Not plain digits, or a sign encoding/json refuses (-1 into a
			// uint) or that writes the zero value (-0): canonicalise.
			var buf [maxIntDigits + 1]byte
			text, st := intText(lit, buf[:])
			switch st {
			case integralFractional:
				s.valueIssue(fmt.Sprintf(s.msgs.NotInteger, s.echo(lit)))
				return
			case integralHuge:
				s.rangeIssue(lit, sh)
				return
			}
			canon = text
		}
		if !intFits(canon, sh) {
			s.rangeIssue(lit, sh)
			return
		}
		if sh.enum != nil {
			if msg := sh.enumIssue(canon, false, s.msgs); msg != "" {
				s.valueIssue(msg)
				return
			}
		}
		if sh.zero != nil && len(canon) == 1 && canon[0] == '0' {
			s.zeroIssue(sh)
		}
		if len(canon) != len(lit) || &canon[0] != &lit[0] {
			s.noteReplace(start, s.pos, canon)
		}
	case kindFloat:
		if !floatFits(lit, sh.bits) {
			s.valueIssue(fmt.Sprintf(s.msgs.FloatRange, s.echo(lit), sh.goType))
		} else if sh.zero != nil && isZeroNumber(lit) {
			s.zeroIssue(sh)
		}
	case kindAny:
		if !floatFits(lit, 64) { // interface{} holds numbers as float64
			s.valueIssue(fmt.Sprintf(s.msgs.FloatRange, s.echo(lit), "float64"))
		}
	default:
		s.mismatch(sh, "number")
	}
}

// rangeIssue reports integer literal lit, as sent, out of sh's range.
func (s *scanner) rangeIssue(lit []byte, sh *shape) {
	lo := "0"
	hi := strconv.FormatUint(sh.hi, 10)
	if sh.kind == kindInt {
		lo = strconv.FormatInt(sh.lo, 10)
	}
	s.valueIssue(fmt.Sprintf(s.msgs.IntRange, s.echo(lit), sh.goType, lo, hi))
}

// isZeroNumber reports whether number literal lit is zero (0, -0, 0.0, 0e5).
func isZeroNumber(lit []byte) bool {
	for _, c := range lit {
		switch {
		case c >= '1' && c <= '9':
			return false
		case c == 'e' || c == 'E':
			return true // only the significand counts
		}
	}
	return true
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
	plain := !bytes.ContainsAny(lit, "eE")
	if plain && ((bits == 64 && len(lit) < 300) || (bits == 32 && len(lit) < 38)) {
		return true
	}
	_, err := strconv.ParseFloat(unsafe.String(unsafe.SliceData(lit), len(lit)), bits)
	return err == nil
}
