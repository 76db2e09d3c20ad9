package toon

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"unicode/utf8"
)

// appendJSON writes v as compact JSON, keys in model order. Strings are
// escaped as JSON requires and no further (no HTML escaping); invalid
// UTF-8 becomes U+FFFD.
func appendJSON(dst []byte, v *value) []byte {
	switch v.kind {
	case kindNull:
		return append(dst, "null"...)
	case kindBool:
		if v.num != 0 {
			return append(dst, "true"...)
		}
		return append(dst, "false"...)
	case kindInt:
		return strconv.AppendInt(dst, int64(v.num), 10)
	case kindUint:
		return strconv.AppendUint(dst, v.num, 10)
	case kindFloat:
		return appendFloat(dst, math.Float64frombits(v.num), 64)
	case kindFloat32:
		return appendFloat(dst, math.Float64frombits(v.num), 32)
	case kindNumber:
		return append(dst, v.str...)
	case kindString:
		return appendJSONString(dst, v.str)
	case kindArray:
		dst = append(dst, '[')
		for i := range v.kids {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendJSON(dst, &v.kids[i])
		}
		return append(dst, ']')
	}
	dst = append(dst, '{')
	for i := range v.kids {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendJSONString(dst, v.kids[i].key)
		dst = append(dst, ':')
		dst = appendJSON(dst, &v.kids[i])
	}
	return append(dst, '}')
}

func appendJSONString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			dst = appendEscape(append(dst, s[start:i]...), c)
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, "\uFFFD"...)
		case r == '\u2028' || r == '\u2029':
			// Valid JSON, but not valid JavaScript before ES2019.
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// ToJSON converts TOON text to compact JSON, keeping the key order of the
// TOON text, which a decode into Go maps would lose. Numbers come out in
// canonical form with every digit the text had. Options: WithStrict,
// WithIndent, WithExpandPaths. Errors are *SyntaxError values naming the
// line.
func ToJSON(data []byte, opts ...Option) ([]byte, error) {
	v, err := decodeDocument(data, buildOptions(opts))
	if err != nil {
		return nil, err
	}
	return appendJSON(make([]byte, 0, len(data)+len(data)/2), &v), nil
}

// Unmarshal decodes TOON text into v, which must be a non-nil pointer. The
// text is decoded to JSON and handed to encoding/json, so every rule of
// json.Unmarshal applies (field matching, json.Unmarshaler, numbers into
// any as float64); a value that does not fit its Go type is reported with
// encoding/json's error, wrapped. Options as for ToJSON.
func Unmarshal(data []byte, v any, opts ...Option) error {
	if rv := reflect.ValueOf(v); rv.Kind() != reflect.Pointer || rv.IsNil() {
		return fmt.Errorf("toon: Unmarshal needs a non-nil pointer, got %T", v)
	}
	js, err := ToJSON(data, opts...)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(js, v); err != nil {
		return fmt.Errorf("toon: %w", err)
	}
	return nil
}
