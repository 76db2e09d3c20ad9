package wire

import "github.com/vurb-go/vurb/internal/engine"

// The MCP HTTP headers vurb reads (net/http canonicalises their case).
const (
	SessionIDHeader       = "Mcp-Session-Id"
	ProtocolVersionHeader = "Mcp-Protocol-Version"
)

// SessionlessRevision reports whether version (a YYYY-MM-DD revision, as
// the header carries it) is one without sessions.
func SessionlessRevision(version string) bool { return engine.Sessionless(version) }
