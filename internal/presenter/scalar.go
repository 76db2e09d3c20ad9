package presenter

import (
	"math"
	"reflect"
	"strconv"

	"github.com/vurb-go/vurb/internal/jsonstr"
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
		return jsonstr.Append(b, v.String())
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
