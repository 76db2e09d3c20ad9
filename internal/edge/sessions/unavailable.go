package sessions

import (
	"errors"
	"log/slog"
	"net/http"
)

// StoreUnavailable answers a request that a shared store failed to serve:
// 503 with Retry-After, since the state it holds is not lost, only out of
// reach for a moment. The store's own error names hosts, keys and
// timeouts: it goes to the log, never to the client.
func StoreUnavailable(w http.ResponseWriter, logger *slog.Logger, doing, session string, err error) {
	logger.Warn("vurb: the shared store failed; answered 503", "doing", doing, "session", session, "err", err)
	w.Header().Set("Retry-After", storeRetryAfter)
	http.Error(w, "Service Unavailable: the server's session store is unavailable; retry shortly", http.StatusServiceUnavailable)
}

// storeRetryAfter is the Retry-After of a store outage, in seconds: a
// restarted Redis answers again within a few.
const storeRetryAfter = "2"

// ErrStoreWiped says the store lost what it held (restarted empty) moments
// ago, and the replicas are saving their sessions in it again.
var ErrStoreWiped = errors.New("the store lost its records (restarted empty, or unreachable); the replicas are saving theirs again")
