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

// ClockAllowance is how far apart the clocks of replicas may be: a key
// is kept this long past its expiry in the shared ledger.
const ClockAllowance = time.Minute

// The refusals of Replays.Spend.
var (
	// ErrReplayed: the key was spent already, or may have been (it is
	// older than one the bounded set forgot).
	ErrReplayed = errors.New("used already")
	// ErrReplayShare: the owner holds its share of the set in memory;
	// its keys are refused until some of its own expire.
	ErrReplayShare = errors.New("one of too many from one caller within the window")
	// ErrReplayUnchecked: the shared ledger could not say; a key never
	// checked is never honoured.
	ErrReplayUnchecked = errors.New("could not be checked against the other replicas' (their shared store is unavailable)")
)

// Replays returns the set of spent keys of kind, kept where the sealer's
// request states are: in the ledger it shares (SpendShared), else in
// memory, at most most keys (DefaultSpentStates when most is 0), a
// sixteenth of them for one owner. Every call for one kind returns the
// same set, so that the handlers of one app share it; most is the
// first call's.
func (s *Sealer) Replays(kind string, most int) *Replays {
	s.replaysMu.Lock()
	defer s.replaysMu.Unlock()
	if r := s.replays[kind]; r != nil {
		return r
	}
	if most <= 0 {
		most = DefaultSpentStates
	}
	r := &Replays{kind: kind, local: newSpent(most, max(most/16, 1)), ledger: s.ledger, logger: s.ledgerLogger}
	if s.replays == nil {
		s.replays = map[string]*Replays{}
	}
	s.replays[kind] = r
	return r
}

// Spend spends key for owner, issued at issued and acceptable until
// expires, at now; nil means it was fresh. Keys are hashed: what a client
// chose is neither stored nor logged as it is.
func (r *Replays) Spend(ctx context.Context, key, owner string, issued, expires, now time.Time) error {
	sum := sha256.Sum256([]byte(key))
	id := base64.RawURLEncoding.EncodeToString(sum[:18])
	if r.ledger != nil {
		// Kept a while past expires: a replica whose clock is behind this
		// one's would still take the proof until its own expires.
		ttl := max(expires.Sub(now), time.Second) + ClockAllowance
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
	switch err := r.local.spend(id, owner, issued.Unix(), expires.Unix(), now.Unix()); {
	case errors.Is(err, errShareFull):
		return ErrReplayShare
	case err != nil:
		return ErrReplayed
	}
	return nil
}
