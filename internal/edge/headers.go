package edge

import "github.com/vurb-go/vurb/internal/engine"

// The MCP HTTP headers vurb reads (net/http canonicalises their case).
const (
	sessionIDHeader       = "Mcp-Session-Id"
	protocolVersionHeader = "Mcp-Protocol-Version"
)

// sessionlessRevision reports whether version (a YYYY-MM-DD revision, as
// the header carries it) is one without sessions.
func sessionlessRevision(version string) bool { return engine.Sessionless(version) }
