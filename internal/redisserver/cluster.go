package redisserver

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Cluster is a Redis Cluster of three masters and no replicas, each a
// redis-server child process on 127.0.0.1 that keeps nothing but its
// cluster configuration, in a directory of the test's own.
type Cluster struct {
	// Addrs are the masters' addresses, host:port, for
	// redis.ClusterOptions.Addrs.
	Addrs []string
	nodes []*Server
}

// StartCluster starts a cluster of the test's own and waits until every
// node says cluster_state:ok; it is stopped at the test's end. Without
// redis-server or redis-cli it skips the test, or fails it when CI is set.
func StartCluster(t testing.TB) *Cluster {
	t.Helper()
	need(t, "redis-server", "redis-cli")
	dir := t.TempDir()
	c := &Cluster{}
	t.Cleanup(c.Stop)
	for range 3 {
		bus, err := freePort()
		if err != nil {
			t.Fatal(err)
		}
		n, err := launch(func(port string) []string {
			return append(plain(port), "--cluster-enabled", "yes", "--cluster-port", strconv.Itoa(bus),
				"--cluster-config-file", filepath.Join(dir, "nodes-"+port+".conf"), "--dir", dir)
		})
		if err != nil {
			t.Fatal(err)
		}
		c.nodes = append(c.nodes, n)
		c.Addrs = append(c.Addrs, n.Addr)
	}
	if _, err := cli(c.Addrs[0], append(append([]string{"--cluster", "create"}, c.Addrs...), "--cluster-yes")...); err != nil {
		t.Fatal(err)
	}
	for _, addr := range c.Addrs {
		if _, err := until(10*time.Second, clusterOK, addr, "cluster", "info"); err != nil {
			t.Fatalf("the cluster never became ready: %v", err)
		}
	}
	return c
}

// clusterOK reports whether CLUSTER INFO says the cluster serves every
// slot and every node knows the others.
func clusterOK(info string) bool {
	return strings.Contains(info, "cluster_state:ok") && strings.Contains(info, "cluster_known_nodes:3")
}

// Stop stops every node; a second Stop does nothing.
func (c *Cluster) Stop() {
	for _, n := range c.nodes {
		n.Stop()
	}
}

// String names the cluster's nodes, for messages.
func (c *Cluster) String() string { return fmt.Sprint("cluster ", c.Addrs) }
