package engine

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
)

func TestRetryAfterRoundsUp(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want time.Duration }{
		{0, time.Millisecond},
		{-time.Second, time.Millisecond},
		{1, time.Millisecond},
		{4*time.Millisecond + 1, 5 * time.Millisecond},
		{999 * time.Millisecond, 999 * time.Millisecond},
		{999*time.Millisecond + 1, time.Second},
		{1234 * time.Millisecond, 1300 * time.Millisecond},
		{9*time.Second + 950*time.Millisecond, 10 * time.Second},
		{29*time.Second + 990*time.Millisecond, 30 * time.Second},
		{time.Hour - time.Millisecond, time.Hour},
	} {
		if got := RetryAfter(tc.in); got != tc.want {
			t.Errorf("RetryAfter(%v) = %v; want %v", tc.in, got, tc.want)
		}
	}
}

func TestRateString(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	is.Equal(Rate{Calls: 1, Per: time.Second}.String(), "1 call per second")
	is.Equal(Rate{Calls: 10, Per: time.Minute}.String(), "10 calls per minute")
	is.Equal(Rate{Calls: 100, Per: time.Hour}.String(), "100 calls per hour")
	is.Equal(Rate{Calls: 5, Per: 90 * time.Second}.String(), "5 calls per 1m30s")
}

func TestCutTextKeepsWholeCharacters(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"abc", 2, "ab"},
		{"aé", 2, "a"},  // é is 2 bytes
		{"aé", 3, "aé"}, // whole
		{"€x", 1, ""},   // € is 3 bytes
		{"€x", 3, "€"},
		{"😀", 3, ""},
	} {
		if got := cutText(tc.s, tc.n); got != tc.want {
			t.Errorf("cutText(%q, %d) = %q; want %q", tc.s, tc.n, got, tc.want)
		}
	}
}

// A slot given back goes to a call waiting for one; one that waits too
// long, or whose caller gives up, gets none, and the count stays right.
func TestSlots(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	s := newSlots(1, time.Hour)
	ok, err := s.take(context.Background())
	is.True(ok && err == nil)
	got := make(chan bool)
	go func() { ok, _ := s.take(context.Background()); got <- ok }()
	time.Sleep(5 * time.Millisecond)
	s.give()
	is.True(<-got) // the waiting call has the slot now

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	ok, err = s.take(ctx)
	is.True(!ok && err == context.Canceled)

	short := newSlots(1, time.Millisecond)
	_, _ = short.take(context.Background())
	ok, err = short.take(context.Background())
	is.True(!ok && err == nil) // waited, then refused
	short.give()
	ok, _ = short.take(context.Background())
	is.True(ok)
}

// TestBoundedKey: a caller key a client can make long (a header) names its
// bucket by a digest, so a store holds a bounded size per bucket; distinct
// keys stay distinct.
func TestBoundedKey(t *testing.T) {
	is := is.New(t)
	short := strings.Repeat("a", maxCallerKey)
	is.Equal(boundedKey(short), short) // a short key is kept as it is
	k1 := boundedKey(strings.Repeat("a", 1<<20))
	k2 := boundedKey(strings.Repeat("a", 1<<20-1) + "b")
	is.True(len(k1) <= maxCallerKey && len(k2) <= maxCallerKey) // long keys are named by a digest
	is.True(k1 != k2)                                           // and two of them never share a bucket
}
