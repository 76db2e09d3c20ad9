package schema

import (
	"bytes"
	"fmt"
	"strconv"
	"unsafe"
)

// Number checks: what a field's Go type can hold, as encoding/json decides it.

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
			s.valueIssue(fmt.Sprintf(s.msgs.IntRange, truncate(string(lit), maxEcho), sh.goType, lo, hi))
		} else if sh.enum != nil {
			if msg := sh.enumIssue(lit, false, s.msgs); msg != "" {
				s.valueIssue(msg)
			}
		}
	case kindFloat:
		if !floatFits(lit, sh.bits) {
			s.valueIssue(fmt.Sprintf(s.msgs.FloatRange, truncate(string(lit), maxEcho), sh.goType))
		}
	case kindAny:
		if !floatFits(lit, 64) { // interface{} holds numbers as float64
			s.valueIssue(fmt.Sprintf(s.msgs.FloatRange, truncate(string(lit), maxEcho), "float64"))
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
	plain := !bytes.ContainsAny(lit, "eE")
	if plain && ((bits == 64 && len(lit) < 300) || (bits == 32 && len(lit) < 38)) {
		return true
	}
	_, err := strconv.ParseFloat(unsafe.String(unsafe.SliceData(lit), len(lit)), bits)
	return err == nil
}
