// Package redisserver runs a redis-server of a test's own, as a child
// process on 127.0.0.1 with nothing saved to disk, for the tests of the
// modules that keep state in Redis (redisrate, redisstate): one place for
// starting it, waiting until it answers, stopping and restarting it, and
// the rule that the tests skip without the binary unless CI is set, when
// they fail instead, since CI must never skip them. It speaks to Redis
// with a bare PING, so that the root module never lists a Redis client.
package redisserver

import (
	"bufio"
	"flag"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Server is a redis-server child process.
type Server struct {
	// Addr is where it listens, host:port.
	Addr string
	cmd  *exec.Cmd
	// args are redis-server's arguments for the port it listens on.
	args func(port string) []string
}

// Start starts a redis-server of the test's own, stopped at the test's
// end; without the binary it skips the test, or fails it when CI is set.
func Start(t testing.TB) *Server {
	t.Helper()
	need(t, "redis-server")
	srv, err := Launch()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	return srv
}

// Launch starts redis-server on a free port and waits until it answers
// PING. A port taken between the check and the start is retried.
func Launch() (*Server, error) { return launch(plain) }

// plain are the arguments of a redis-server that keeps nothing on disk.
func plain(port string) []string {
	return []string{"--port", port, "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--loglevel", "warning"}
}

// launch starts redis-server with args on a free port and waits until it
// answers PING. A port taken between the check and the start is retried.
func launch(args func(port string) []string) (*Server, error) {
	var last error
	for range 5 {
		port, err := freePort()
		if err != nil {
			return nil, err
		}
		srv := &Server{Addr: net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), args: args}
		if last = srv.start(); last == nil {
			return srv, nil
		}
	}
	return nil, last
}

// start runs redis-server at the server's address and waits until it
// answers PING.
func (s *Server) start() error {
	_, port, _ := net.SplitHostPort(s.Addr)
	s.cmd = exec.Command("redis-server", s.args(port)...)
	if err := s.cmd.Start(); err != nil {
		return fmt.Errorf("start redis-server: %w", err)
	}
	if err := s.waitReady(5 * time.Second); err != nil {
		s.Stop()
		return fmt.Errorf("redis-server never answered PING: %w", err)
	}
	return nil
}

// Restart starts the stopped server again at the same address, empty, as
// a Redis restarted without persistence comes back.
func (s *Server) Restart(t testing.TB) {
	t.Helper()
	if err := s.start(); err != nil {
		t.Fatal(err)
	}
}

// Stop kills the server and waits for it to exit; a second Stop does
// nothing.
func (s *Server) Stop() {
	if s.cmd == nil || s.cmd.ProcessState != nil {
		return
	}
	_ = s.cmd.Process.Kill()
	_ = s.cmd.Wait()
}

// Signal sends sig to the server (SIGSTOP hangs it, SIGCONT resumes it).
func (s *Server) Signal(sig os.Signal) error { return s.cmd.Process.Signal(sig) }

// need skips the test without the binaries, or fails it when CI is set.
func need(t testing.TB, binaries ...string) {
	t.Helper()
	for _, b := range binaries {
		if _, err := exec.LookPath(b); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatal(b + " not found; CI must run these tests: apt-get install redis-server redis-tools")
			}
			t.Skip(b + " not found: install it (apt-get install redis-server redis-tools) to run this test; with CI set it fails instead")
		}
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

// waitReady waits until the server answers PING, within the bound.
func (s *Server) waitReady(within time.Duration) error {
	deadline := time.Now().Add(within)
	for {
		err := s.ping()
		if err == nil || time.Now().After(deadline) {
			return err
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (s *Server) ping() error {
	c, err := net.DialTimeout("tcp", s.Addr, 200*time.Millisecond)
	if err != nil {
		return err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(200 * time.Millisecond))
	if _, err := c.Write([]byte("PING\r\n")); err != nil {
		return err
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		return err
	}
	if !strings.HasPrefix(line, "+PONG") {
		return fmt.Errorf("redis-server answered PING with %q", strings.TrimSpace(line))
	}
	return nil
}

// Main runs a test binary's tests with a redis-server for its examples,
// at REDIS_ADDR as a deployment would give it. Without the binary the
// examples cannot run: they are left out, and the tests skip one by one
// (or fail, with CI set). name says whose tests they are, for the message.
func Main(m *testing.M, name string) {
	if _, err := exec.LookPath("redis-server"); err != nil {
		if os.Getenv("CI") == "" {
			fmt.Fprintln(os.Stderr, name+": redis-server not found; the tests skip and the examples are left out (apt-get install redis-server)")
			flag.Parse()
			if run := flag.Lookup("test.run"); run.Value.String() == "" {
				_ = run.Value.Set("^Test")
			}
		}
		os.Exit(m.Run())
	}
	srv, err := Launch()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("REDIS_ADDR", srv.Addr)
	code := m.Run()
	srv.Stop()
	os.Exit(code)
}
