package presenter

import (
	"math"
	"reflect"
	"strconv"
	"unicode/utf8"
)

// The writer writes the booleans, numbers and strings of the structs it
// writes itself as encoding/json does, without calling it. With this,
// values handed to presenters without a copy (reflect.TypeAssert) and
// each suggested action looked up once per result, a presented page makes
// far fewer allocations than when every field went through json.Marshal,
// and costs less beside an unpresented call (BenchmarkPresenterPaired,
// bench/README.md). TestPresentedJSONIsEncodingJSON holds these writers to
// encoding/json's bytes.

// scalarKind reports whether the writer writes values of t itself: a
// boolean, number or string type that does not marshal itself.
func scalarKind(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.String, reflect.Float32, reflect.Float64,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return !marshalsItself(t)
	}
	return false
}

// appendScalar appends the JSON of v, of a scalarKind type; ok is false
// for a value left to encoding/json: one it refuses (NaN, ±Inf), which it
// then says why, and a string of invalid UTF-8.
func appendScalar(b []byte, v reflect.Value) (out []byte, ok bool) {
	switch v.Kind() {
	case reflect.Bool:
		return strconv.AppendBool(b, v.Bool()), true
	case reflect.String:
		return appendJSONString(b, v.String())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.AppendInt(b, v.Int(), 10), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strconv.AppendUint(b, v.Uint(), 10), true
	case reflect.Float32, reflect.Float64:
		return appendFloat(b, v.Float(), v.Type().Bits())
	}
	return b, false
}

// appendFloat is encoding/json's float encoding: ES6 number formatting.
func appendFloat(b []byte, f float64, bits int) ([]byte, bool) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return b, false
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (bits == 64 && (abs < 1e-6 || abs >= 1e21) || bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21)) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, bits)
	if format == 'e' { // e-09 to e-9
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, true
}

const hexDigits = "0123456789abcdef"

// appendJSONString is encoding/json's string encoding with HTML escaping,
// as json.Marshal writes it: <, > and & escaped, U+2028 and U+2029
// escaped. ok is false, and b as it was, for invalid UTF-8, whose
// replacement encoding/json writes differently from one Go release to the
// next (\ufffd, then the character itself from Go 1.27): it is left to it.
func appendJSONString(b []byte, s string) (out []byte, ok bool) {
	n := len(b)
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			return b[:n], false
		case r == '\u2028' || r == '\u2029':
			b = append(append(b, s[start:i]...), '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	return append(append(b, s[start:]...), '"'), true
}
