package schema

import (
	"bytes"
	"math"
	"reflect"
	"strconv"
	"strings"
	"unsafe"
)

// The fast path's decoder: a second walk over a document the pre-scan has
// already accepted (well formed, an object, every key a known field or the
// skipped key, no duplicates, every value of the field's kind and in its
// range, strings valid UTF-8), storing each value as encoding/json would.
// Because the pre-scan vouched for the document, this walk only locates
// values; it still checks every index, and on anything it did not expect it
// returns false and Decode takes the slow path.

// decode stores the top-level members of data into the zeroed struct at
// base. skip is the key DecodeSkipping ignores ("" for none).
func (p *fastPlan) decode(data []byte, base unsafe.Pointer, skip string) bool {
	var stored uint64 // fields stored, when some have a default
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return false
	}
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return p.fill(stored, base)
	}
	for {
		if i >= len(data) || data[i] != '"' {
			return false
		}
		end, esc := stringEnd(data, i+1)
		if end < 0 {
			return false
		}
		key := data[i+1 : end]
		if esc {
			key = unescape(key) // rare: a key written with escapes
		}
		i = skipSpace(data, end+1)
		if i >= len(data) || data[i] != ':' {
			return false
		}
		i = skipSpace(data, i+1)
		switch f := p.field(key); {
		case skip != "" && string(key) == skip:
			// Ignored by the pre-scan, but encoding/json would still store
			// it into a field whose name matches it, even only by case.
			if p.folds(skip) {
				return false
			}
			i = skipJSON(data, i)
		case f == nil:
			return false
		default:
			i = f.store(data, i, base)
			if p.defaults {
				stored |= 1 << p.position(f)
			}
		}
		if i < 0 {
			return false
		}
		i = skipSpace(data, i)
		if i >= len(data) {
			return false
		}
		switch data[i] {
		case ',':
			i = skipSpace(data, i+1)
		case '}':
			return p.fill(stored, base) // what follows is only space: the pre-scan checked it
		default:
			return false
		}
	}
}

// fill stores the default of every field with one that was not stored.
func (p *fastPlan) fill(stored uint64, base unsafe.Pointer) bool {
	if !p.defaults {
		return true
	}
	for i := range p.fields {
		if f := &p.fields[i]; f.def != nil && stored&(1<<i) == 0 {
			if f.store(f.def, 0, base) < 0 {
				return false
			}
		}
	}
	return true
}

// position is the index of f in p.fields.
func (p *fastPlan) position(f *fastField) uint {
	return uint((uintptr(unsafe.Pointer(f)) - uintptr(unsafe.Pointer(&p.fields[0]))) / unsafe.Sizeof(*f))
}

// valid reports whether every field passes its rules.
func (p *fastPlan) valid(base unsafe.Pointer) bool {
	for i := range p.fields {
		if !p.fields[i].valid(base) {
			return false
		}
	}
	return true
}

// field finds the field named key exactly, or nil.
func (p *fastPlan) field(key []byte) *fastField {
	if p.index != nil {
		if i, ok := p.index[string(key)]; ok {
			return &p.fields[i]
		}
		return nil
	}
	for i := range p.fields {
		if p.fields[i].name == string(key) {
			return &p.fields[i]
		}
	}
	return nil
}

// folds reports whether encoding/json would decode key into some field:
// it matches names exactly, then case-insensitively (its foldName is
// bytes.EqualFold).
func (p *fastPlan) folds(key string) bool {
	for i := range p.fields {
		if strings.EqualFold(p.fields[i].name, key) {
			return true
		}
	}
	return false
}

// store decodes the value at data[i:] into field f of the struct at base and
// returns the index after it, or -1.
func (f *fastField) store(data []byte, i int, base unsafe.Pointer) int {
	if i >= len(data) {
		return -1
	}
	if data[i] == 'n' {
		// null leaves the field as it is, zero: nil for a pointer, and
		// encoding/json ignores null for a string, number or bool.
		if !bytes.HasPrefix(data[i:], litNull) {
			return -1
		}
		return i + len(litNull)
	}
	dst := f.at(base)
	if f.ptr {
		// As encoding/json: one new value of the pointed-to type.
		v := reflect.New(f.elem).UnsafePointer()
		*(*unsafe.Pointer)(dst) = v
		dst = v
	}
	switch f.kind {
	case fastString:
		if data[i] != '"' {
			return -1
		}
		end, esc := stringEnd(data, i+1)
		if end < 0 {
			return -1
		}
		raw := data[i+1 : end]
		if esc {
			u := unescape(raw) // fresh and never written again: the string can share it
			*(*string)(dst) = unsafe.String(unsafe.SliceData(u), len(u))
		} else {
			*(*string)(dst) = string(raw)
		}
		return end + 1
	case fastBool:
		switch {
		case bytes.HasPrefix(data[i:], litTrue):
			*(*bool)(dst) = true
			return i + len(litTrue)
		case bytes.HasPrefix(data[i:], litFalse):
			return i + len(litFalse) // already false
		}
		return -1
	}
	end, plain := numberEnd(data, i)
	if end == i {
		return -1
	}
	lit := unsafe.String(&data[i], end-i) // strconv keeps no reference on success
	switch f.kind {
	case fastInt:
		if plain && !(data[i] == '-' && end-i == 2 && data[i+1] == '0') {
			n, err := strconv.ParseInt(lit, 10, 64)
			if err != nil || !storeInt(dst, f.size, n) {
				return -1
			}
			break
		}
		// 7.0, 1e2, -0: a whole number written otherwise (integral.go).
		var buf [maxIntDigits + 1]byte
		text, st := intText(data[i:end], buf[:])
		n, ok := parseIntText(text, false)
		if st != integralOK || !ok || !storeInt(dst, f.size, int64(n)) {
			return -1
		}
	case fastUint:
		if plain && data[i] != '-' {
			n, err := strconv.ParseUint(lit, 10, 64)
			if err != nil || !storeUint(dst, f.size, n) {
				return -1
			}
			break
		}
		var buf [maxIntDigits + 1]byte
		text, st := intText(data[i:end], buf[:])
		n, ok := parseIntText(text, true)
		if st != integralOK || !ok || !storeUint(dst, f.size, n) {
			return -1
		}
	case fastFloat:
		// As encoding/json: ParseFloat at the field's size, refusing what
		// is out of range; a float32 keeps the rounded value.
		if f.size == 4 {
			x, err := strconv.ParseFloat(lit, 32)
			if err != nil {
				return -1
			}
			*(*float32)(dst) = float32(x)
		} else {
			x, err := strconv.ParseFloat(lit, 64)
			if err != nil {
				return -1
			}
			*(*float64)(dst) = x
		}
	}
	return end
}

var (
	litNull  = []byte("null")
	litTrue  = []byte("true")
	litFalse = []byte("false")
)

// storeInt stores n at p if it fits size bytes, as reflect.Value.OverflowInt
// decides it for encoding/json.
func storeInt(p unsafe.Pointer, size uintptr, n int64) bool {
	switch size {
	case 1:
		if n < math.MinInt8 || n > math.MaxInt8 {
			return false
		}
		*(*int8)(p) = int8(n)
	case 2:
		if n < math.MinInt16 || n > math.MaxInt16 {
			return false
		}
		*(*int16)(p) = int16(n)
	case 4:
		if n < math.MinInt32 || n > math.MaxInt32 {
			return false
		}
		*(*int32)(p) = int32(n)
	default:
		*(*int64)(p) = n
	}
	return true
}

// storeUint stores n at p if it fits size bytes.
func storeUint(p unsafe.Pointer, size uintptr, n uint64) bool {
	switch size {
	case 1:
		if n > math.MaxUint8 {
			return false
		}
		*(*uint8)(p) = uint8(n)
	case 2:
		if n > math.MaxUint16 {
			return false
		}
		*(*uint16)(p) = uint16(n)
	case 4:
		if n > math.MaxUint32 {
			return false
		}
		*(*uint32)(p) = uint32(n)
	default:
		*(*uint64)(p) = n
	}
	return true
}

func skipSpace(data []byte, i int) int {
	for i < len(data) {
		switch data[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// stringEnd returns the index of the closing quote of a well-formed string
// whose contents start at i, or -1, and whether the string has escapes.
func stringEnd(data []byte, i int) (end int, esc bool) {
	for i < len(data) {
		switch data[i] {
		case '"':
			return i, esc
		case '\\':
			esc = true
			i += 2 // the escaped byte; \uXXXX's digits hold no quote or backslash
		default:
			i++
		}
	}
	return -1, esc
}

// tokenEnd returns the index after the number, true, false or null at data[i:].
func tokenEnd(data []byte, i int) int {
	for i < len(data) {
		switch c := data[i]; {
		case c >= '0' && c <= '9', c >= 'a' && c <= 'z', c == '-', c == '+', c == '.', c == 'E':
			i++
		default:
			return i
		}
	}
	return i
}

// numberEnd is tokenEnd for a number, and reports whether it is plain
// digits, perhaps signed: no fraction and no exponent.
func numberEnd(data []byte, i int) (end int, plain bool) {
	plain = true
	for i < len(data) {
		switch c := data[i]; {
		case c >= '0' && c <= '9', c == '-':
			i++
		case c >= 'a' && c <= 'z', c == '+', c == '.', c == 'E':
			plain = false
			i++
		default:
			return i, plain
		}
	}
	return i, plain
}

// skipJSON returns the index after the well-formed value at data[i:], or -1.
func skipJSON(data []byte, i int) int {
	depth := 0
	for i < len(data) {
		switch data[i] {
		case '"':
			end, _ := stringEnd(data, i+1)
			if end < 0 {
				return -1
			}
			i = end + 1
		case '{', '[':
			depth++
			i++
		case '}', ']':
			depth--
			i++
		default:
			if depth == 0 { // a number or a literal: up to the next delimiter
				return tokenEnd(data, i)
			}
			i++
		}
		if depth <= 0 {
			return i
		}
	}
	return -1
}
