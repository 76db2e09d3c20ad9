package schema

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

// DecodeOptions tune one Decode.
type DecodeOptions struct {
	Limits Limits
	// Skip is one top-level key that is accepted and ignored, such as a
	// grouped tool's discriminator ("action"); "" means none.
	Skip string
}

var emptyObject = []byte("{}")

// Decode strictly decodes data, a JSON object, into dst, a non-nil pointer to
// c.Type(), then validates it. nil, empty or all-whitespace data means {}, so
// required fields are still enforced when a client sends no arguments.
//
// dst is zeroed first: a field absent from data holds its zero value. Bad
// input returns an *Error listing every problem found; a dst of the wrong
// type returns a plain error. Decode never panics on any input.
//
// Unlike json.Unmarshal alone, Decode matches names case-sensitively, refuses
// unknown and duplicate keys, reports missing required keys as missing
// (null counts as missing), names the field and the expected type on a kind
// mismatch, refuses numbers that do not fit the field's Go type and strings
// that are not valid UTF-8, and refuses documents larger than
// Limits.MaxBytes or deeper than Limits.MaxDepth before decoding anything.
func (c *Codec) Decode(data []byte, dst any, opts DecodeOptions) error {
	_, err := c.decode(data, dst, opts, true)
	return err
}

// decode is Decode; tryFast lets it take the fast path when the type has one,
// and fast reports whether it did (tests compare the two paths).
func (c *Codec) decode(data []byte, dst any, opts DecodeOptions, tryFast bool) (fast bool, err error) {
	rv := reflect.ValueOf(dst)
	if rv.Kind() != reflect.Pointer || rv.IsNil() || rv.Type().Elem() != c.typ {
		return false, fmt.Errorf("schema: Decode needs a non-nil *%s, got %T", c.typ, dst)
	}
	maxBytes, maxDepth := opts.Limits.resolve()
	if len(data) > maxBytes {
		return false, single(fmt.Sprintf(MsgTooLarge, len(data), maxBytes))
	}
	if isBlank(data) {
		data = emptyObject
	}
	s := scanner{data: data, maxDepth: maxDepth, skip: opts.Skip}
	s.scanTop(c.shape)
	if s.fatal {
		return false, single(s.fatalMsg)
	}
	if s.more > 0 { // enough to act on; decoding would only find more
		return false, &Error{Issues: append(s.issues, Issue{Message: fmt.Sprintf(MsgMoreIssues, s.more)})}
	}
	rv.Elem().SetZero()
	if tryFast && c.fast != nil && len(s.issues) == 0 {
		// The fast path accepts exactly what the slow path accepts; on a
		// failed rule or anything unexpected its partial work is undone
		// and the slow path writes the errors.
		base := rv.UnsafePointer()
		if c.fast.decode(data, base, opts.Skip) && c.fast.valid(base) {
			return true, nil
		}
		rv.Elem().SetZero()
	}
	issues := s.issues
	if err := json.Unmarshal(data, dst); err != nil && len(issues) == 0 {
		// The pre-scan accepted what the decoder refused: only a custom
		// UnmarshalJSON or UnmarshalText (or base64 for []byte) can do that.
		issues = append(issues, Issue{Message: fmt.Sprintf(MsgUndecodable, truncate(err.Error(), 4*maxEcho))})
	}
	if err := validate.Struct(dst); err != nil {
		issues = validationIssues(err, c.typ, s.covered, issues)
	}
	if len(issues) > 0 {
		return false, &Error{Issues: issues}
	}
	return false, nil
}

func single(msg string) *Error { return &Error{Issues: []Issue{{Message: msg}}} }

func isBlank(data []byte) bool {
	for _, c := range data {
		switch c {
		case ' ', '\t', '\n', '\r':
		default:
			return false
		}
	}
	return true
}

// isCovered reports whether path is at or below one of the covered paths.
func isCovered(path string, covered []string) bool {
	for _, c := range covered {
		if path == c {
			return true
		}
		if strings.HasPrefix(path, c) {
			if c == "" {
				return true
			}
			if next := path[len(c)]; next == '.' || next == '[' {
				return true
			}
		}
	}
	return false
}
