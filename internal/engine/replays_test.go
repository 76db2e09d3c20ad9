package engine

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"testing"
	"time"

	"github.com/matryer/is"
)

// failingLedger is a shared ledger that is down.
type failingLedger struct{ ttls []time.Duration }

func (l *failingLedger) Spend(_ context.Context, _ string, ttl time.Duration) (bool, error) {
	l.ttls = append(l.ttls, ttl)
	return false, errors.New("down")
}

// TestReplaysRefuseAKeyTwiceUntilItExpires: in memory, a key is refused
// while it could be taken, and forgotten once it expired.
func TestReplaysRefuseAKeyTwiceUntilItExpires(t *testing.T) {
	is := is.New(t)
	r := NewSealer(nil, 0, 0).Replays("proof", 0)
	now := time.Unix(1_800_000_000, 0)
	is.NoErr(r.Spend(context.Background(), "k", "alice", now, now.Add(time.Minute), now))
	is.Equal(r.Spend(context.Background(), "k", "alice", now, now.Add(time.Minute), now.Add(30*time.Second)), ErrReplayed)
	is.Equal(r.Spend(context.Background(), "k", "bob", now, now.Add(time.Minute), now.Add(30*time.Second)), ErrReplayed) // the key, whoever sends it
	is.NoErr(r.Spend(context.Background(), "other", "alice", now, now.Add(time.Minute), now))
}

// TestReplaysKeepAShareForEachCaller: a busy caller may use the room no
// one needs, up to half the set; then it is refused alone, and the
// others, and the caller once its keys expire, go on.
func TestReplaysKeepAShareForEachCaller(t *testing.T) {
	is := is.New(t)
	r := NewSealer(nil, 0, 0).Replays("proof", 64) // a share of 4, enforced from 32 keys
	now := time.Unix(1_800_000_000, 0)
	ctx := context.Background()
	for i := range 32 {
		is.NoErr(r.Spend(ctx, fmt.Sprint("m", i), "mallory", now, now.Add(time.Minute), now))
	}
	is.Equal(r.Spend(ctx, "m32", "mallory", now, now.Add(time.Minute), now), ErrReplayShare)
	for i := range 4 {
		is.NoErr(r.Spend(ctx, fmt.Sprint("a", i), "alice", now, now.Add(time.Minute), now))
	}
	is.Equal(r.Spend(ctx, "a4", "alice", now, now.Add(time.Minute), now), ErrReplayShare) // her share, the set under pressure
	is.NoErr(r.Spend(ctx, "b0", "bob", now, now.Add(time.Minute), now))
	later := now.Add(time.Minute + time.Second)
	is.NoErr(r.Spend(ctx, "m-later", "mallory", later, later.Add(time.Minute), later)) // its keys expired
}

// TestReplaysAreOnePerKind: the handlers of one app share the set.
func TestReplaysAreOnePerKind(t *testing.T) {
	is := is.New(t)
	s := NewSealer(nil, 0, 0)
	first, again := s.Replays("dpop", 0), s.Replays("dpop", 0)
	is.True(first == again)
	is.True(first != s.Replays("other", 0))
}

// TestReplaysFailClosedAndOutliveClockDifferences: a ledger that fails
// spends nothing and the key is refused as unchecked; a key is kept there
// past its expiry by the replicas' clock allowance.
func TestReplaysFailClosedAndOutliveClockDifferences(t *testing.T) {
	is := is.New(t)
	s := NewSealer(nil, 0, 0)
	l := &failingLedger{}
	s.SpendShared(l, slog.New(slog.DiscardHandler))
	now := time.Unix(1_800_000_000, 0)
	is.Equal(s.Replays("dpop", 0).Spend(context.Background(), "k", "alice", now, now.Add(time.Minute), now), ErrReplayUnchecked)
	is.Equal(l.ttls, []time.Duration{time.Minute + ClockAllowance})
}

// TestSpentForgetsTheEarliestIssued: full, the set forgets the key issued
// earliest, not the first spent, so a key issued ahead of the clock (a
// client's fast iat) does not raise the floor past everyone's keys.
func TestSpentForgetsTheEarliestIssued(t *testing.T) {
	is := is.New(t)
	s := newSpent(4, 0)
	const now, window = 1_800_000_000, 60
	is.NoErr(s.spend("fast", "", now+59, now+59+window, now)) // spent first, issued last
	for i := range 4 {
		is.NoErr(s.spend(fmt.Sprint("k", i), "", now-10+int64(i), now-10+int64(i)+window, now))
	}
	is.Equal(s.floor, int64(now-10))                                           // the earliest was forgotten, not "fast"
	is.NoErr(s.spend("honest", "", now+1, now+1+window, now+1))                // fresh keys go on
	is.Equal(s.spend("k0", "", now-10, now-10+window, now+1), ErrStateExpired) // the forgotten one stays refused
	is.Equal(s.spend("fast", "", now+59, now+59+window, now+1), ErrStateSpent)
}
