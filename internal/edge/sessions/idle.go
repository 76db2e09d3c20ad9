package sessions

import "time"

// DefaultIdleTimeout closes a session that has received no request for
// this long (edge.DefaultSessionIdleTimeout).
const DefaultIdleTimeout = 30 * time.Minute
