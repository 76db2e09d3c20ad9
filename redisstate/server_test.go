package redisstate_test

import (
	"testing"

	"github.com/redis/go-redis/v9"
	"github.com/vurb-go/vurb/internal/redisserver"
)

// The tests run against a real redis-server of their own
// (internal/redisserver): without the binary they skip, unless CI is set,
// when they fail instead.

// redisServer is a test's redis-server.
type redisServer struct{ *redisserver.Server }

// startRedis starts a redis-server of the test's own, stopped at the
// test's end.
func startRedis(t testing.TB) *redisServer { return &redisServer{redisserver.Start(t)} }

func (s *redisServer) stop()                { s.Stop() }
func (s *redisServer) restart(t testing.TB) { s.Restart(t) }

// client returns a go-redis client of the server, closed at the test's
// end: each is a replica's own connection pool, set as the docs advise.
func (s *redisServer) client(t testing.TB) *redis.Client {
	t.Helper()
	c := redis.NewClient(&redis.Options{Addr: s.Addr, ContextTimeoutEnabled: true})
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// TestMain gives the examples a redis-server at REDIS_ADDR.
func TestMain(m *testing.M) { redisserver.Main(m, "redisstate") }
