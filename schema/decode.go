package schema

import (
	"fmt"
	"reflect"
	"strings"

	segjson "github.com/segmentio/encoding/json"
)

// DecodeOptions tune one Decode; the zero value means the default limits
// and the built-in texts.
type DecodeOptions struct {
	Limits Limits
	// Messages words the errors; nil means the built-in texts (those of
	// DefaultMessages). Decode only reads it, so one Messages can serve any
	// number of concurrent calls.
	Messages *Messages
	// Skip names one top-level key that Decode accepts and ignores wherever
	// it appears among the members: a grouped tool's discriminator
	// ("action"), which the router has already read (see Lookup). Sent
	// twice, it is refused as a duplicate, so a router and a handler never
	// see two values of it. "" skips nothing.
	Skip string
}

var emptyObject = []byte("{}")

// Decode strictly decodes data, a JSON object, into dst, a non-nil pointer to
// c.Type(), then validates it. nil, empty or all-whitespace data means {}, so
// required fields are still enforced when a client sends no arguments.
//
// dst is zeroed first: a field absent from data holds its zero value, or
// its default. Bad
// input returns an *Error listing every problem found; a dst of the wrong
// type returns a plain error. Decode never panics on any input.
//
// Unlike json.Unmarshal alone, Decode matches names case-sensitively, refuses
// unknown and duplicate keys, reports missing required keys as missing
// (a required one sent as null too; an optional one sent as null is refused),
// applies defaults to absent properties, reads whole numbers written as
// floats (7.0, 1e2) into integers, names the field and the expected type on
// a kind mismatch, refuses numbers that do not fit the field's Go type and
// strings that are not valid UTF-8, and refuses documents larger than
// Limits.MaxBytes or deeper than Limits.MaxDepth before decoding anything.
//
// Every text of the *Error comes from opts.Messages, except that a custom
// rule it has no text for is worded as its Validator's RegisterRule says:
// no package-level setting is read during a call.
func (c *Codec) Decode(data []byte, dst any, opts DecodeOptions) error {
	return c.decode(data, dst, opts, opts.Skip)
}

// decode is Decode with skip as opts.Skip. The rules are checked without
// the validator where a passCheck can prove they hold (passcheck.go): on a
// served call the validator is a large share of what decoding costs.
func (c *Codec) decode(data []byte, dst any, opts DecodeOptions, skip string) error {
	if c.pending != "" {
		panic(c.pending)
	}
	if c.raw != nil {
		msgs := messagesOr(opts.Messages)
		maxBytes, maxDepth := opts.Limits.resolve()
		if len(data) > maxBytes {
			return single(fmt.Sprintf(msgs.TooLarge, len(data), maxBytes))
		}
		return c.raw.decode(data, dst, msgs, maxDepth, skip)
	}
	rv := reflect.ValueOf(dst)
	if rv.Kind() != reflect.Pointer || rv.IsNil() || rv.Type().Elem() != c.typ {
		return fmt.Errorf("schema: Decode needs a non-nil *%s, got %T", c.typ, dst)
	}
	msgs := messagesOr(opts.Messages)
	maxBytes, maxDepth := opts.Limits.resolve()
	if len(data) > maxBytes {
		return single(fmt.Sprintf(msgs.TooLarge, len(data), maxBytes))
	}
	if isBlank(data) {
		data = emptyObject
	}
	s := scanner{data: data, maxDepth: maxDepth, skip: skip, msgs: msgs, custom: c.v.messages}
	s.scanTop(c.shape)
	if s.fatal {
		return single(s.fatalMsg)
	}
	if s.more > 0 { // enough to act on; decoding would only find more
		return &Error{Issues: append(s.issues, Issue{Message: fmt.Sprintf(msgs.MoreIssues, s.more)})}
	}
	rv.Elem().SetZero()
	decoded := data
	if len(s.edits) > 0 {
		decoded = applyEdits(data, s.edits)
	}
	issues := s.issues
	// The go-sdk decodes every message with segmentio's decoder, so it is
	// in every binary already; here it does encoding/json's work without
	// encoding/json's separate validity pass, which the pre-scan made
	// redundant (bench/README.md, "Arguments decoded by segmentio").
	if err := segjson.Unmarshal(decoded, dst); err != nil && len(issues) == 0 {
		// The pre-scan accepted what the decoder refused: only a custom
		// UnmarshalJSON or UnmarshalText (or base64 for []byte) can do that.
		reason := truncate(err.Error(), 4*maxEcho)
		if c.hushed {
			reason = RedactedEcho
		}
		issues = append(issues, Issue{Message: fmt.Sprintf(msgs.Undecodable, reason)})
	}
	if c.pass == nil || !c.pass.passes(rv.Elem()) {
		if err := c.v.validate.Struct(dst); err != nil {
			issues = c.v.validationIssues(err, c.typ, s.covered, issues, msgs, c.conds)
		}
	}
	if len(issues) > 0 {
		return &Error{Issues: issues}
	}
	return nil
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
