package schema

import (
	"errors"
	"net/netip"
	"testing"

	"github.com/matryer/is"
)

type (
	echoCard struct {
		Number int64 `json:"number"`
	}
	echoInput struct {
		PIN   *int8          `json:"pin,omitempty" redact:"true"`
		Level *int8          `json:"level,omitempty"`
		Ratio *float32       `json:"ratio,omitempty" redact:"true"`
		Card  *echoCard      `json:"card,omitempty" redact:"omit"`
		Codes map[string]int `json:"codes,omitempty" redact:"true"`
	}
	echoAddr struct {
		Addr *netip.Addr `json:"addr,omitempty" redact:"true"`
	}
)

// TestDecodeMessagesDoNotEchoRedactedFields: a value sent in a field
// tagged redact, or in anything it holds, is never repeated in the
// message (which is also the log line and the span status): the marker
// stands for it; a field without the tag still echoes what was sent.
func TestDecodeMessagesDoNotEchoRedactedFields(t *testing.T) {
	for _, tt := range []struct {
		name, in, want string
	}{
		{"int range", `{"pin":7373737373}`, `pin: [redacted] is out of range for int8 (-128 to 127)`},
		{"not an integer", `{"pin":73.7373}`, `pin: must be an integer, got [redacted]`},
		{"float range", `{"ratio":7373e73}`, `ratio: [redacted] is out of range for float32`},
		{"nested in an omitted field", `{"card":{"number":73737373737373737373}}`, `card.number: [redacted] is out of range for int64 (-9223372036854775808 to 9223372036854775807)`},
		{"map value", `{"codes":{"a":7373.5}}`, `codes[a]: must be an integer, got [redacted]`},
		{"bad character inside", `{"codes":{"a":1 x}}`, `arguments are not valid JSON: invalid character [redacted] at offset 16`},
		{"untagged still echoes", `{"level":7373}`, `level: 7373 is out of range for int8 (-128 to 127)`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			var v echoInput
			err := For[echoInput]().Decode([]byte(tt.in), &v, DecodeOptions{})
			var e *Error
			is.True(errors.As(err, &e))
			is.Equal(err.Error(), tt.want)
		})
	}
}

// TestDecoderErrorNotEchoedUnderRedaction: the decoder's own error (a
// custom UnmarshalText refusing) may quote anything sent and says nowhere
// where; in an input holding a field tagged redact it is not echoed.
func TestDecoderErrorNotEchoedUnderRedaction(t *testing.T) {
	is := is.New(t)
	var v echoAddr
	err := For[echoAddr]().Decode([]byte(`{"addr":"7373-secret-7373"}`), &v, DecodeOptions{})
	is.True(err != nil)
	is.Equal(err.Error(), `arguments could not be decoded: [redacted]`)
}
