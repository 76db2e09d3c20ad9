package limit

import (
	"context"

	"github.com/vurb-go/vurb/internal/engine"
)

// CallerBucket names a PerCaller bucket: the token's subject, else the
// HTTP client's host (its /64 over IPv6), else the session, else the one
// bucket of anonymous callers (stdio, in-process). The host comes before the
// session: over HTTP an anonymous client may open a session per call, and
// would get a full bucket with each. Quotas of the serving edge (sessions,
// tasks) name their callers with it too, so that one caller is one caller
// everywhere.
func CallerBucket(_ context.Context, o engine.Origin) string { return o.CallerKey() }
