package edge

import (
	"context"
	"time"
)

// A Ledger records keys that may be used once over all the replicas of an
// app: each sealed input-request state is spent in it, so that a state is
// played once for the deployment, not once on each replica. A call that
// carries no state never reads it. redisstate's is one SET NX a state.
type Ledger interface {
	// Spend records key until ttl from now and reports whether it was
	// new: false when it was spent already. An error spends nothing: the
	// state is refused, and the client may send it again.
	Spend(ctx context.Context, key string, ttl time.Duration) (fresh bool, err error)
}
