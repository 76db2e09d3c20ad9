package redisserver

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// SentinelMaster is the name the sentinel of StartSentinel monitors, for
// redis.FailoverOptions.MasterName.
const SentinelMaster = "vurbmaster"

// Sentinel is a Redis Sentinel set-up: a master, one replica of it, and
// one sentinel that monitors them as SentinelMaster, each a redis-server
// child process on 127.0.0.1.
type Sentinel struct {
	// Addr is the sentinel's address, for
	// redis.FailoverOptions.SentinelAddrs.
	Addr string
	// Master and Replica are the first master's and replica's addresses;
	// after a failover they have swapped roles.
	Master, Replica string
	procs           []*Server
}

// StartSentinel starts a sentinel set-up of the test's own and waits
// until the replica has synchronised and the sentinel knows it; it is
// stopped at the test's end. Without redis-server or redis-cli it skips
// the test, or fails it when CI is set.
func StartSentinel(t testing.TB) *Sentinel {
	t.Helper()
	need(t, "redis-server", "redis-cli")
	dir := t.TempDir()
	s := &Sentinel{}
	t.Cleanup(s.Stop)
	// A replica's full synchronisation writes an RDB file: in dir, not here.
	kept := func(port string) []string { return append(plain(port), "--dir", dir) }
	master, err := launch(kept)
	if err != nil {
		t.Fatal(err)
	}
	s.procs = append(s.procs, master)
	replica, err := launch(func(port string) []string {
		host, mport, _ := strings.Cut(master.Addr, ":")
		return append(kept(port), "--replicaof", host, mport)
	})
	if err != nil {
		t.Fatal(err)
	}
	s.procs = append(s.procs, replica)
	s.Master, s.Replica = master.Addr, replica.Addr
	if _, err := until(10*time.Second, func(info string) bool { return strings.Contains(info, "master_link_status:up") },
		replica.Addr, "info", "replication"); err != nil {
		t.Fatalf("the replica never synchronised: %v", err)
	}
	sentinel, err := launch(func(port string) []string {
		conf := filepath.Join(dir, "sentinel-"+port+".conf")
		host, mport, _ := strings.Cut(master.Addr, ":")
		// The sentinel rewrites its file as it learns: it must be its own.
		text := fmt.Sprintf("sentinel monitor %s %s %s 1\n"+
			"sentinel down-after-milliseconds %[1]s 1000\nsentinel failover-timeout %[1]s 10000\n", SentinelMaster, host, mport)
		if err := os.WriteFile(conf, []byte(text), 0o600); err != nil {
			panic(err) // a test's own temporary directory
		}
		return []string{conf, "--sentinel", "--port", port, "--bind", "127.0.0.1", "--loglevel", "warning", "--dir", dir}
	})
	if err != nil {
		t.Fatal(err)
	}
	s.procs = append(s.procs, sentinel)
	s.Addr = sentinel.Addr
	if _, err := until(10*time.Second, func(a string) bool { return strings.Contains(a, replica.Addr[strings.LastIndex(replica.Addr, ":")+1:]) },
		s.Addr, "sentinel", "replicas", SentinelMaster); err != nil {
		t.Fatalf("the sentinel never learnt of the replica: %v", err)
	}
	return s
}

// Failover has the sentinel promote the replica, and waits until the
// sentinel names it master and it serves writes.
func (s *Sentinel) Failover(t testing.TB) {
	t.Helper()
	if _, err := until(10*time.Second, func(a string) bool { return strings.TrimSpace(a) == "OK" },
		s.Addr, "sentinel", "failover", SentinelMaster); err != nil {
		t.Fatalf("SENTINEL FAILOVER: %v", err)
	}
	_, port, _ := strings.Cut(s.Replica, ":")
	if _, err := until(15*time.Second, func(a string) bool { return strings.Contains(a, port) },
		s.Addr, "sentinel", "get-master-addr-by-name", SentinelMaster); err != nil {
		t.Fatalf("the sentinel never named the replica master: %v", err)
	}
	if _, err := until(15*time.Second, func(a string) bool { return strings.Contains(a, "role:master") },
		s.Replica, "info", "replication"); err != nil {
		t.Fatalf("the replica never became master: %v", err)
	}
	s.Master, s.Replica = s.Replica, s.Master
}

// Stop stops the sentinel, the master and the replica; a second Stop does
// nothing.
func (s *Sentinel) Stop() {
	for i := len(s.procs) - 1; i >= 0; i-- {
		s.procs[i].Stop()
	}
}
