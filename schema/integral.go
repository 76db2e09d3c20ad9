package schema

// Integral numbers: JSON Schema counts 7.0, -833.0 and 1e2 as integers, and
// so does Decode. An integer field accepts any number literal whose value is
// a whole number; encoding/json only reads plain digits into an int, so such
// a literal is rewritten to them (intText) before decoding (see edits.go).

// integralStatus says what intText found.
type integralStatus uint8

const (
	integralOK         integralStatus = iota // text holds the canonical integer
	integralFractional                       // the value has a fractional part
	integralHuge                             // a whole number of more than maxIntDigits digits
)

// maxIntDigits bounds the canonical text intText builds: every 64-bit
// integer has fewer digits, so a longer value is out of range for any Go
// integer type, and a literal such as 1e999999999 costs nothing.
const maxIntDigits = 21

// intText returns the canonical integer text ("100", "-833", "0") of the
// well-formed JSON number lit when its value is a whole number. buf is
// scratch space the text may be built in.
func intText(lit []byte, buf []byte) ([]byte, integralStatus) {
	i := 0
	neg := lit[0] == '-'
	if neg {
		i++
	}
	// The significant digits, integer part then fraction, and the power of
	// ten that scales them.
	var digits [2 * maxIntDigits]byte
	nd, dropped := 0, 0 // digits kept; nonzero fraction digits that did not fit
	exp := 0
	for ; i < len(lit) && lit[i] >= '0' && lit[i] <= '9'; i++ {
		if nd == 0 && lit[i] == '0' {
			continue // leading zero
		}
		if nd == len(digits) {
			return nil, integralHuge // more integer digits than any Go integer holds
		}
		digits[nd] = lit[i]
		nd++
	}
	if i < len(lit) && lit[i] == '.' {
		for i++; i < len(lit) && lit[i] >= '0' && lit[i] <= '9'; i++ {
			if nd == 0 && lit[i] == '0' {
				exp-- // 0.000x: leading zero of the fraction
				continue
			}
			if nd == len(digits) {
				if lit[i] != '0' {
					dropped++
				}
				continue
			}
			digits[nd] = lit[i]
			nd++
			exp--
		}
	}
	if i < len(lit) && (lit[i] == 'e' || lit[i] == 'E') {
		i++
		eneg := false
		if lit[i] == '+' || lit[i] == '-' {
			eneg = lit[i] == '-'
			i++
		}
		e := 0
		for ; i < len(lit); i++ {
			if e < 1<<20 { // saturates: anything larger is huge or fractional alike
				e = e*10 + int(lit[i]-'0')
			}
		}
		if eneg {
			e = -e
		}
		exp += e
	}
	// Trailing zeros of the significand move into the exponent.
	for nd > 0 && digits[nd-1] == '0' {
		nd--
		exp++
	}
	switch {
	case nd == 0 && dropped == 0:
		return append(buf[:0], '0'), integralOK
	case dropped > 0 || exp < 0:
		return nil, integralFractional
	case nd+exp > maxIntDigits:
		return nil, integralHuge
	}
	out := buf[:0]
	if neg {
		out = append(out, '-')
	}
	out = append(out, digits[:nd]...)
	for range exp {
		out = append(out, '0')
	}
	return out, integralOK
}
