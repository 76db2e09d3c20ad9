//go:build unix

package redisstate_test

import (
	"syscall"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb/redisstate"
)

// A Redis that accepts commands and never answers (a stopped process)
// costs each method the store's timeout, when the client lets go-redis
// honour the context's deadline (ContextTimeoutEnabled), as the docs
// advise; once it answers again, the same store works.
func TestRedisHungFailsWithinTheTimeout(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := startRedis(t)
	const timeout = 100 * time.Millisecond
	st := redisstate.New(srv.client(t), redisstate.WithTimeout(timeout))
	task := works(t, st)

	is.NoErr(srv.Signal(syscall.SIGSTOP))
	failsFast(t, st, task, timeout, "hung")
	is.NoErr(srv.Signal(syscall.SIGCONT))
	works(t, st)
}
