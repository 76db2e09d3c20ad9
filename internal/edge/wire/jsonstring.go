package wire

import (
	"encoding/json"

	"github.com/vurb-go/vurb/internal/jsonstr"
)

// appendJSONString appends s to buf as json.Marshal writes it. The lane
// writes every text block it answers this way: json.Marshal boxed the
// string and copied its output, two allocations of a served call. A
// string that is not valid UTF-8, rare, is left to json.Marshal, whose
// writing of it changed with Go 1.27 (jsonstr.Append).
func appendJSONString(buf []byte, s string) []byte {
	if out, ok := jsonstr.Append(buf, s); ok {
		return out
	}
	data, _ := json.Marshal(s) // a string always marshals
	return append(buf, data...)
}
