package sessions

import (
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ReplayMetaKey marks a request one replica replays on another's behalf,
// so that the replica replaying it does not announce it again.
const ReplayMetaKey = "vurb/replayed"

// Replayed reports whether meta marks a replayed request.
func Replayed(meta mcp.Meta) bool {
	_, ok := meta[ReplayMetaKey]
	return ok
}

// ReplayMeta is the _meta of a replayed request.
func ReplayMeta() mcp.Meta { return mcp.Meta{ReplayMetaKey: true} }

// ReplayRequest is the JSON-RPC request that replays method with params
// (whose _meta carries ReplayMetaKey) on another replica.
func ReplayRequest(method string, params any) []byte {
	data, err := json.Marshal(struct {
		Version string `json:"jsonrpc"`
		ID      string `json:"id"`
		Method  string `json:"method"`
		Params  any    `json:"params"`
	}{"2.0", "vurb-replay", method, params})
	if err != nil {
		return nil
	}
	return data
}
