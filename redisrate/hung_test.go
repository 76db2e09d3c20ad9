//go:build unix

package redisrate_test

import (
	"syscall"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb/redisrate"
	"github.com/vurb-go/vurb/store"
)

// A Redis that accepts commands and never answers (a stopped process)
// costs a call the Store's timeout, when the client lets go-redis honour
// the context's deadline (ContextTimeoutEnabled), as the docs advise.
func TestRedisHungIsAnErrorWithinTheTimeout(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := startRedis(t)
	const timeout = 100 * time.Millisecond
	s := redisrate.New(srv.client(t), redisrate.WithTimeout(timeout))
	r := store.Rate{Calls: 1, Per: time.Minute, Burst: 2}
	ok, _, err := s.Take(ctx, "k", r) // connected
	is.NoErr(err)
	is.True(ok)

	is.NoErr(srv.Signal(syscall.SIGSTOP))
	start := time.Now()
	ok, _, err = s.Take(ctx, "k", r)
	took := time.Since(start)
	is.NoErr(srv.Signal(syscall.SIGCONT))
	if err == nil {
		t.Fatal("Take with Redis hung returned no error")
	}
	is.True(!ok)
	t.Logf("Redis hung: %v after %v", err, took.Round(time.Millisecond))
	if took > timeout+200*time.Millisecond {
		t.Fatalf("Take with Redis hung took %v; the timeout is %v", took, timeout)
	}
}
