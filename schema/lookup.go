package schema

import (
	"encoding/json"
	"fmt"
)

// Lookup returns the raw JSON value of one top-level member of data without
// decoding the rest, so that a grouped tool can read its discriminator
// before it knows which struct to decode into. found is false when the key
// is absent (or data is nil, empty or blank).
//
// The whole document is still checked for well-formedness and limits, and a
// key sent twice is refused: a router and a handler must never see two
// different values of the discriminator. err, an *Error, is returned only in
// those cases and when data is not a JSON object, worded by opts as the
// Decode that would follow it. raw aliases data.
func Lookup(data []byte, key string, opts DecodeOptions) (raw json.RawMessage, found bool, err error) {
	msgs := messagesOr(opts.Messages)
	maxBytes, maxDepth := opts.Limits.resolve()
	if len(data) > maxBytes {
		return nil, false, single(fmt.Sprintf(msgs.TooLarge, len(data), maxBytes))
	}
	if isBlank(data) {
		return nil, false, nil
	}
	s := scanner{data: data, maxDepth: maxDepth, find: key, finding: true, msgs: msgs}
	s.quiet = 1 // only fatal problems and the key itself matter here
	s.scanTop(anyShape)
	if s.fatal {
		return nil, false, single(s.fatalMsg)
	}
	if s.foundDup {
		return nil, false, single(fmt.Sprintf(msgs.DuplicateField, quoteKey([]byte(key))))
	}
	if !s.found {
		return nil, false, nil
	}
	return json.RawMessage(data[s.valStart:s.valEnd]), true, nil
}
