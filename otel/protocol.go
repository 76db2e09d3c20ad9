package vurbotel

import "github.com/modelcontextprotocol/go-sdk/mcp"

// revisions are the protocol revisions the go-sdk knows: the only values
// recorded as mcp.protocol.version.
var revisions = func() map[string]bool {
	m := map[string]bool{}
	for _, v := range mcp.SupportedProtocolVersions() {
		m[v] = true
	}
	return m
}()

// revision returns what to record for a protocol version a client named:
// the version if it is a known revision, otherName if not, "" for none.
// A client can name any string (50 initialize requests with made-up 1 KB
// versions made 50 active_sessions series); the server answers with a
// revision it knows, and so does the recording.
func revision(v string) string {
	switch {
	case v == "":
		return ""
	case revisions[v]:
		return v
	}
	return otherName
}
