package engine

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"log/slog"
	"time"
)

// Replays refuses a key used twice while it may still be accepted: a
// DPoP proof's jti, for one. Each key is spent in the ledger the replicas
// share when there is one (one SET NX), else in a bounded set in memory.
// Its zero value is not usable; see Sealer.Replays.
type Replays struct {
	kind   string // the ledger's namespace
	local  spentStates
	ledger Ledger
	logger *slog.Logger
}

// The refusals of Replays.Spend.
var (
	// ErrReplayed: the key was spent already, or may have been (it is
	// older than one the bounded set forgot).
	ErrReplayed = errors.New("used already")
	// ErrReplayUnchecked: the shared ledger could not say; a key never
	// checked is never honoured.
	ErrReplayUnchecked = errors.New("could not be checked against the other replicas' (their shared store is unavailable)")
)

// Replays returns a set of spent keys of kind, kept where the sealer's
// request states are: in the ledger it shares (SpendShared), else in
// memory, at most max keys (DefaultSpentStates when max is 0).
func (s *Sealer) Replays(kind string, max int) *Replays {
	if max <= 0 {
		max = DefaultSpentStates
	}
	return &Replays{kind: kind, local: spentStates{max: max, at: map[string]int64{}}, ledger: s.ledger, logger: s.ledgerLogger}
}

// Shared reports whether keys are spent in a ledger shared by replicas.
func (r *Replays) Shared() bool { return r.ledger != nil }

// Spend spends key, issued at issued and acceptable until expires, at
// now; nil means it was fresh. Keys are hashed: what a client chose is
// neither stored nor logged as it is.
func (r *Replays) Spend(ctx context.Context, key string, issued, expires, now time.Time) error {
	sum := sha256.Sum256([]byte(key))
	id := base64.RawURLEncoding.EncodeToString(sum[:18])
	if r.ledger != nil {
		ttl := max(expires.Sub(now), time.Second)
		fresh, err := r.ledger.Spend(ctx, r.kind+":"+id, ttl)
		if err != nil {
			r.logger.Warn("vurb: spending a "+r.kind+" in the shared ledger failed; refused it", "err", err)
			return ErrReplayUnchecked
		}
		if !fresh {
			return ErrReplayed
		}
		return nil
	}
	if err := r.local.spend(id, issued.Unix(), expires.Unix(), now.Unix()); err != nil {
		return ErrReplayed
	}
	return nil
}
