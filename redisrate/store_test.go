package redisrate_test

import (
	"context"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb/redisrate"
	"github.com/vurb-go/vurb/store"
)

var ctx = context.Background()

// A full bucket gives its burst at once, then refuses with the wait until
// its next token: the rate's interval less the time the calls took.
func TestBurstThenRefusal(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	s := redisrate.New(startRedis(t).client(t))
	r := store.Rate{Calls: 10, Per: time.Second, Burst: 2} // a token every 100 ms
	start := time.Now()
	for range 2 {
		ok, after, err := s.Take(ctx, "k", r)
		is.NoErr(err)
		is.True(ok)
		is.Equal(after, time.Duration(0))
	}
	ok, after, err := s.Take(ctx, "k", r)
	took := time.Since(start)
	is.NoErr(err)
	is.True(!ok)
	if after > 100*time.Millisecond || after < 100*time.Millisecond-took {
		t.Fatalf("refused with retry after %v; want %v less the %v the calls took, at most", after, 100*time.Millisecond, took)
	}
	ok, _, err = s.Take(ctx, "other", r)
	is.NoErr(err)
	is.True(ok) // buckets are per key
}

// A bucket refills at its rate: the wait a refusal names is enough, and
// an emptied bucket left alone for its refill time gives its whole burst
// again, and no more.
func TestRefillOverTime(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	s := redisrate.New(startRedis(t).client(t))
	r := store.Rate{Calls: 20, Per: time.Second, Burst: 3} // a token every 50 ms
	for range 3 {
		ok, _, err := s.Take(ctx, "k", r)
		is.NoErr(err)
		is.True(ok)
	}
	ok, after, err := s.Take(ctx, "k", r)
	is.NoErr(err)
	is.True(!ok)
	time.Sleep(after)
	ok, _, err = s.Take(ctx, "k", r)
	is.NoErr(err)
	is.True(ok) // the wait named was enough

	time.Sleep(200 * time.Millisecond) // 4 tokens' worth: the bucket is full at 3
	granted, start := 0, time.Now()
	for range 5 {
		if ok, _, _ := s.Take(ctx, "k", r); ok {
			granted++
		}
	}
	// Five calls in a few milliseconds: the burst, and the tokens
	// refilled meanwhile (none, unless the machine stalled).
	refilled := int(time.Since(start) / (50 * time.Millisecond))
	if granted < 3 || granted > 3+refilled {
		t.Fatalf("a refilled bucket granted %d of 5 calls at once, in %v; want its burst, 3, and %d refilled", granted, time.Since(start), refilled)
	}
}

// Two replicas, each with its own Store and Redis client, spend one
// bucket; a store with another prefix keeps buckets of its own.
func TestReplicasShareABucket(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := startRedis(t)
	a, b := redisrate.New(srv.client(t)), redisrate.New(srv.client(t))
	other := redisrate.New(srv.client(t), redisrate.WithPrefix("other:"))
	r := store.Rate{Calls: 1, Per: time.Hour, Burst: 5} // no refill during the test
	granted := 0
	for i := range 10 {
		s := a
		if i%2 == 1 {
			s = b
		}
		ok, _, err := s.Take(ctx, "shared", r)
		is.NoErr(err)
		if ok {
			granted++
		}
	}
	is.Equal(granted, 5) // the burst, once, across both replicas
	ok, _, err := other.Take(ctx, "shared", r)
	is.NoErr(err)
	is.True(ok)
	keys, err := srv.client(t).Keys(ctx, "*").Result()
	is.NoErr(err)
	is.Equal(len(keys), 2)
	for _, k := range keys {
		if k != redisrate.DefaultPrefix+"shared" && k != "other:shared" {
			t.Fatalf("key %q in Redis; want the bucket's name after its store's prefix", k)
		}
	}
}

// When the app changes a limit's rate, a bucket keeps the tokens it had
// and follows the new rate, as vurb's memory store does: the same steps
// through both stores get the same answers.
func TestRateChangeKeepsTokens(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	s := redisrate.New(startRedis(t).client(t))
	mem := store.NewMemoryRates(0)
	slow := func(burst int) store.Rate { return store.Rate{Calls: 1, Per: time.Hour, Burst: burst} }
	steps := []struct {
		r     store.Rate
		calls int
	}{
		{slow(5), 2},  // 3 tokens left
		{slow(10), 4}, // a larger burst does not fill the bucket: 3 granted
		{slow(5), 1},  // still empty
		{store.Rate{Calls: 1000, Per: time.Second, Burst: 5}, 1}, // refused, a token within 1 ms
	}
	for i, st := range steps {
		for j := range st.calls {
			want, wantAfter, _ := mem.Take(ctx, "k", st.r)
			got, after, err := s.Take(ctx, "k", st.r)
			is.NoErr(err)
			if got != want {
				t.Fatalf("step %d call %d at %v: Redis answered %t, memory %t", i, j, st.r, got, want)
			}
			if !want && (after <= 0 || after > wantAfter+100*time.Millisecond || wantAfter > after+100*time.Millisecond) {
				t.Fatalf("step %d call %d at %v: retry after %v; memory says %v", i, j, st.r, after, wantAfter)
			}
		}
	}

	// A smaller burst holds the tokens kept to it.
	ok, _, _ := s.Take(ctx, "shrunk", slow(5))
	is.True(ok) // 4 left
	granted := 0
	for range 4 {
		if ok, _, _ := s.Take(ctx, "shrunk", slow(2)); ok {
			granted++
		}
	}
	is.Equal(granted, 2)
}

// Each bucket's key expires when the bucket would be full again, at which
// point it is the same as none: idle callers cost Redis nothing.
func TestKeyExpiresWhenRefilled(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := startRedis(t)
	rdb := srv.client(t)
	s := redisrate.New(rdb)
	r := store.Rate{Calls: 10, Per: time.Second, Burst: 2}
	key := redisrate.DefaultPrefix + "k"

	_, _, err := s.Take(ctx, "k", r) // 1 token short: full again in 100 ms
	is.NoErr(err)
	ttl, err := rdb.PTTL(ctx, key).Result()
	is.NoErr(err)
	if ttl <= 0 || ttl > 101*time.Millisecond {
		t.Fatalf("TTL %v after one call; want the 100 ms until the bucket is full", ttl)
	}
	_, _, err = s.Take(ctx, "k", r) // empty: full in 200 ms
	is.NoErr(err)
	ttl, err = rdb.PTTL(ctx, key).Result()
	is.NoErr(err)
	if ttl <= 100*time.Millisecond || ttl > 201*time.Millisecond {
		t.Fatalf("TTL %v after the burst; want the 200 ms an empty bucket takes to refill", ttl)
	}

	hourly := store.Rate{Calls: 1, Per: time.Hour, Burst: 1}
	_, _, err = s.Take(ctx, "slow", hourly)
	is.NoErr(err)
	ttl, err = rdb.PTTL(ctx, redisrate.DefaultPrefix+"slow").Result()
	is.NoErr(err)
	if ttl <= 59*time.Minute || ttl > time.Hour+time.Millisecond {
		t.Fatalf("TTL %v for a bucket refilled in an hour", ttl)
	}

	time.Sleep(250 * time.Millisecond)
	n, err := rdb.Exists(ctx, key).Result()
	is.NoErr(err)
	is.Equal(n, int64(0)) // refilled: forgotten
	ok, _, err := s.Take(ctx, "k", r)
	is.NoErr(err)
	is.True(ok)
}

// With Redis down, Take returns an error (and vurb lets the call
// through) within its timeout, DefaultTimeout unless WithTimeout sets
// another, where go-redis alone would retry its dial for seconds.
func TestRedisDownIsAnError(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := startRedis(t)
	stores := []struct {
		s       *redisrate.Store
		timeout time.Duration
	}{
		{redisrate.New(srv.client(t)), redisrate.DefaultTimeout},
		{redisrate.New(srv.client(t), redisrate.WithTimeout(50*time.Millisecond)), 50 * time.Millisecond},
	}
	r := store.Rate{Calls: 1, Per: time.Minute, Burst: 2}
	for _, st := range stores {
		ok, _, err := st.s.Take(ctx, "k", r)
		is.NoErr(err)
		is.True(ok)
	}

	srv.stop()
	for _, st := range stores {
		start := time.Now()
		ok, _, err := st.s.Take(ctx, "k", r)
		took := time.Since(start)
		if err == nil {
			t.Fatal("Take with Redis down returned no error")
		}
		is.True(!ok)
		t.Logf("Redis down: %v after %v", err, took.Round(time.Millisecond))
		if took > st.timeout+200*time.Millisecond {
			t.Fatalf("Take with Redis down took %v; the timeout is %v", took, st.timeout)
		}
	}
}

// A rate that never refills is an error (vurb lets the call through); a
// burst below 1 is never granted, as in vurb's memory store, without a
// round trip.
func TestRatesOutsideVurbsOwn(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := startRedis(t)
	s := redisrate.New(srv.client(t))
	_, _, err := s.Take(ctx, "k", store.Rate{Calls: 0, Per: time.Second, Burst: 1})
	is.True(err != nil)
	ok, after, err := s.Take(ctx, "k", store.Rate{Calls: 1, Per: time.Second})
	is.NoErr(err)
	is.True(!ok)
	is.Equal(after, time.Second)
	memOK, memAfter, _ := store.NewMemoryRates(0).Take(ctx, "k", store.Rate{Calls: 1, Per: time.Second})
	is.Equal(memOK, ok)
	is.Equal(memAfter, after)
}
