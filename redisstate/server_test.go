package redisstate_test

import (
	"context"
	"flag"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// The tests run against a real redis-server, started by the tests
// themselves as a child process on 127.0.0.1 with nothing saved to disk.
// Without the binary they skip, unless CI is set: then they fail, since
// CI must never skip them.

// redisServer is a redis-server child process.
type redisServer struct {
	addr string
	cmd  *exec.Cmd
}

// startRedis starts a redis-server of the test's own, stopped at the
// test's end.
func startRedis(t testing.TB) *redisServer {
	t.Helper()
	if _, err := exec.LookPath("redis-server"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("redis-server not found; CI must run these tests: apt-get install redis-server")
		}
		t.Skip("redis-server not found: install it (apt-get install redis-server) to run this test; with CI set it fails instead")
	}
	srv, err := launchRedis()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.stop)
	return srv
}

// launchRedis starts redis-server on a free port and waits until it
// answers PING. A port taken between the check and the start is retried.
func launchRedis() (*redisServer, error) {
	var last error
	for range 5 {
		port, err := freePort()
		if err != nil {
			return nil, err
		}
		srv := &redisServer{addr: net.JoinHostPort("127.0.0.1", strconv.Itoa(port))}
		if last = srv.start(); last == nil {
			return srv, nil
		}
	}
	return nil, last
}

// start runs redis-server at the server's address and waits until it
// answers PING.
func (s *redisServer) start() error {
	_, port, _ := net.SplitHostPort(s.addr)
	s.cmd = exec.Command("redis-server", "--port", port, "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--loglevel", "warning")
	if err := s.cmd.Start(); err != nil {
		return fmt.Errorf("start redis-server: %w", err)
	}
	if err := s.waitReady(5 * time.Second); err != nil {
		s.stop()
		return fmt.Errorf("redis-server never answered PING: %w", err)
	}
	return nil
}

// restart starts the stopped server again at the same address, empty, as
// a Redis restarted without persistence comes back.
func (s *redisServer) restart(t testing.TB) {
	t.Helper()
	if err := s.start(); err != nil {
		t.Fatal(err)
	}
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func (s *redisServer) waitReady(within time.Duration) error {
	c := redis.NewClient(&redis.Options{Addr: s.addr, MaxRetries: -1})
	defer c.Close()
	deadline := time.Now().Add(within)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		err := c.Ping(ctx).Err()
		cancel()
		if err == nil || time.Now().After(deadline) {
			return err
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// stop kills the server and waits for it to exit; a second stop does
// nothing.
func (s *redisServer) stop() {
	if s.cmd.ProcessState != nil {
		return
	}
	_ = s.cmd.Process.Kill()
	_ = s.cmd.Wait()
}

// client returns a go-redis client of the server, closed at the test's
// end: each is a replica's own connection pool, set as the docs advise.
func (s *redisServer) client(t testing.TB) *redis.Client {
	t.Helper()
	c := redis.NewClient(&redis.Options{Addr: s.addr, ContextTimeoutEnabled: true})
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// TestMain starts the redis-server the Example uses, at REDIS_ADDR, as a
// deployment would give it. Without the binary the example cannot run: it
// is left out, and the tests skip one by one (or fail, with CI set).
func TestMain(m *testing.M) {
	if _, err := exec.LookPath("redis-server"); err != nil {
		if os.Getenv("CI") == "" {
			fmt.Fprintln(os.Stderr, "redisstate: redis-server not found; the tests skip and the example is left out (apt-get install redis-server)")
			flag.Parse()
			if run := flag.Lookup("test.run"); run.Value.String() == "" {
				_ = run.Value.Set("^Test")
			}
		}
		os.Exit(m.Run())
	}
	srv, err := launchRedis()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("REDIS_ADDR", srv.addr)
	code := m.Run()
	srv.stop()
	os.Exit(code)
}
