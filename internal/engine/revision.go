package engine

// FirstSessionlessRevision is the protocol revision that removed sessions
// and the initialize handshake: every revision the edge and the engine
// compare against is read from here. Revisions (YYYY-MM-DD) compare as
// strings.
const FirstSessionlessRevision = "2026-07-28"

// Sessionless reports whether version is a revision without sessions.
func Sessionless(version string) bool {
	return len(version) == len(FirstSessionlessRevision) && version >= FirstSessionlessRevision
}
