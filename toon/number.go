package toon

import (
	"math"
	"math/big"
	"strconv"
	"strings"
)

// Numbers are kept as decimal text from the moment they are read, never as
// float64, so integers beyond 2^53 and long decimals survive a round trip.
// That makes the numeric domain arbitrary-precision decimal: no number is
// out of range and none is turned into a string (spec §2 and §4 ask that the
// policy be documented; see the package comment).

// isNumber reports whether s is a JSON number: -?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?
// This is also the set of unquoted TOON tokens that decode as numbers:
// leading zeros ("05") stay strings (spec §4).
func isNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		i = skipDigits(s, i)
	default:
		return false
	}
	if i < len(s) && s[i] == '.' {
		j := skipDigits(s, i+1)
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
		j := skipDigits(s, i)
		if j == i {
			return false
		}
		i = j
	}
	return i == len(s)
}

func skipDigits(s string, i int) int {
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

// canonicalNumber rewrites a JSON number literal in the canonical form of
// spec §2, exactly: plain decimal without exponent, leading zeros or
// trailing fractional zeros when 1e-6 <= |n| < 1e21 (or n = 0), -0 as 0;
// outside that range the shortest exponent form d.ddde±x. lit must satisfy
// isNumber.
func canonicalNumber(lit string) string {
	return string(appendCanonical(nil, lit))
}

func appendCanonical(dst []byte, lit string) []byte {
	neg := strings.HasPrefix(lit, "-")
	if neg {
		lit = lit[1:]
	}
	mant, exp := lit, ""
	if i := strings.IndexAny(lit, "eE"); i >= 0 {
		mant, exp = lit[:i], lit[i+1:]
	}
	intPart, frac := mant, ""
	if i := strings.IndexByte(mant, '.'); i >= 0 {
		intPart, frac = mant[:i], mant[i+1:]
	}
	// The value is 0.D × 10^point, D the significant digits.
	digits := intPart + frac
	lead := 0
	for lead < len(digits) && digits[lead] == '0' {
		lead++
	}
	d := strings.TrimRight(digits[lead:], "0")
	if d == "" {
		return append(dst, '0')
	}
	if neg {
		dst = append(dst, '-')
	}
	e, err := strconv.ParseInt(exp, 10, 64)
	if exp == "" {
		e, err = 0, nil
	}
	const maxExp = 1 << 60 // keeps point arithmetic far from overflow
	if err != nil || e > maxExp || e < -maxExp {
		return appendHugeExponent(dst, d, int64(len(intPart)-lead), exp)
	}
	point := int64(len(intPart)-lead) + e
	switch {
	case point > 21 || point < -5: // |n| >= 1e21 or |n| < 1e-6
		return appendExponent(dst, d, point-1)
	case point <= 0:
		dst = append(dst, "0."...)
		dst = appendZeros(dst, int(-point))
		return append(dst, d...)
	case int(point) < len(d):
		dst = append(dst, d[:point]...)
		dst = append(dst, '.')
		return append(dst, d[point:]...)
	default:
		dst = append(dst, d...)
		return appendZeros(dst, int(point)-len(d))
	}
}

func appendZeros(dst []byte, n int) []byte {
	for ; n > 0; n-- {
		dst = append(dst, '0')
	}
	return dst
}

// appendExponent writes d.ddd e±x for the significant digits d.
func appendExponent(dst []byte, d string, e int64) []byte {
	dst = append(dst, d[0])
	if len(d) > 1 {
		dst = append(dst, '.')
		dst = append(dst, d[1:]...)
	}
	dst = append(dst, 'e')
	if e >= 0 {
		dst = append(dst, '+')
	}
	return strconv.AppendInt(dst, e, 10)
}

// appendHugeExponent handles exponents too large for int64 arithmetic; such
// numbers are always outside the plain-decimal range.
func appendHugeExponent(dst []byte, d string, shift int64, exp string) []byte {
	e, _ := new(big.Int).SetString(strings.TrimPrefix(exp, "+"), 10)
	e.Add(e, big.NewInt(shift-1))
	dst = append(dst, d[0])
	if len(d) > 1 {
		dst = append(dst, '.')
		dst = append(dst, d[1:]...)
	}
	dst = append(dst, 'e')
	if e.Sign() >= 0 {
		dst = append(dst, '+')
	}
	return e.Append(dst, 10)
}

// appendFloat writes a finite float in canonical form with the fewest
// digits that read back as the same float (bits is 32 or 64).
func appendFloat(dst []byte, f float64, bits int) []byte {
	if f == 0 {
		return append(dst, '0') // also -0
	}
	if a := math.Abs(f); a >= 1e-6 && a < 1e21 {
		return strconv.AppendFloat(dst, f, 'f', -1, bits)
	}
	var tmp [32]byte
	return appendCanonical(dst, string(strconv.AppendFloat(tmp[:0], f, 'e', -1, bits)))
}
