package wire

import (
	"bytes"
	"encoding/json"

	"github.com/vurb-go/vurb/internal/engine"
)

// MirrorsHeaders reports whether r's tool binds fields to HTTP headers
// (x-mcp-header): the go-sdk checks those headers, so the lane and the
// tasks front hand its calls to the go-sdk.
func MirrorsHeaders(r engine.Route) bool {
	schema, ok := r.Wire().InputSchema.(json.RawMessage)
	return ok && bytes.Contains(schema, []byte(`"x-mcp-header"`))
}
