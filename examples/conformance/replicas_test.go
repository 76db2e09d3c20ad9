package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/redisserver"
)

// TestReplicasSurviveSIGKILL runs three replicas of this server, built as
// a binary, on one redis-server behind HAProxy in round robin with no
// affinity (scripts/replicas.sh's configuration), and kills replicas with
// SIGKILL while clients use them (issue #30): a handshake-era session
// goes on, every call answered, because the survivors load it from Redis
// and HAProxy sends a request that met the dead replica to another one;
// a task started before a death is still known to tasks/get after it.
// It needs redis-server and haproxy: without them it skips, or fails
// when CI is set.
func TestReplicasSurviveSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("starts redis-server, three replicas and HAProxy")
	}
	haproxyBin := needBinary(t, "haproxy")
	redis := redisserver.Start(t) // skips without redis-server, or fails with CI set
	c := startCluster(t, redis.Addr, haproxyBin, 3)

	t.Run("session", func(t *testing.T) {
		is := is.New(t)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		client := mcp.NewClient(&mcp.Implementation{Name: "replicas-test", Version: "1.0.0"}, nil)
		cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: c.url},
			&mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
		is.NoErr(err)
		defer cs.Close()
		callSimple := func(n int) {
			t.Helper()
			for i := range n {
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "test_simple_text"})
				if err != nil {
					t.Fatalf("call %d: %v", i, err)
				}
				if res.IsError || len(res.Content) != 1 {
					t.Fatalf("call %d: %+v", i, res)
				}
				is.Equal(textOf(t, res.Content[0]), "This is a simple text response for testing.")
			}
		}
		callSimple(10)
		c.kill(t, 0)
		callSimple(20)
	})

	t.Run("task", func(t *testing.T) {
		is := is.New(t)
		resp := c.rpc(t, "tools/call", "slow_compute", `"name":"slow_compute","arguments":{"seconds":60,"label":"replicas"}`)
		res, ok := resp["result"].(map[string]any)
		is.True(ok) // tools/call answered with a result
		is.Equal(res["resultType"], "task")
		id, _ := res["taskId"].(string)
		is.True(id != "")
		c.kill(t, 1)
		// Each tasks/get lands on another survivor, or meets the dead
		// replica first and is sent on: every one must know the task.
		for range 6 {
			resp := c.rpc(t, "tasks/get", id, `"taskId":"`+id+`"`)
			res, ok := resp["result"].(map[string]any)
			if !ok {
				t.Fatalf("tasks/get %s after a replica's death: %v", id, resp)
			}
			is.Equal(res["taskId"], id)
			is.True(res["status"] != nil)
		}
	})
}

// needBinary returns the path of the named program, or skips the test
// without it (fails it when CI is set: CI must run it).
func needBinary(t *testing.T, name string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		if p := "/usr/sbin/" + name; fileExists(p) {
			return p
		}
		if os.Getenv("CI") != "" {
			t.Fatalf("%s not found; CI must run this test: apt-get install %s", name, name)
		}
		t.Skipf("%s not found: install it (apt-get install %s) to run this test; with CI set it fails instead", name, name)
	}
	return path
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// cluster is replicas of this server on one Redis and HAProxy in front of
// them, every process the test's own, stopped at its end.
type cluster struct {
	url      string // HAProxy's MCP endpoint
	replicas []*exec.Cmd
	addrs    []string // each replica's own address, host:port
}

func startCluster(t *testing.T, redisAddr, haproxyBin string, n int) *cluster {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, "conformance")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}

	const stateKey = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"
	c := &cluster{}
	var servers strings.Builder
	for i := range n {
		addr := "127.0.0.1:" + freePort(t)
		c.addrs = append(c.addrs, addr)
		c.replicas = append(c.replicas, start(t, dir, fmt.Sprintf("replica%d", i), bin,
			"-http", addr, "-redis", "redis://"+redisAddr, "-state-key", stateKey, "-task-lease", "3s"))
		waitFor(t, "replica "+addr, func() error { return ready("http://" + addr + "/readyz") })
		fmt.Fprintf(&servers, "\tserver r%d %s check inter 1s fall 2 rise 1\n", i, addr)
	}

	c.url = "http://" + startHAProxy(t, dir, haproxyBin, servers.String()) + "/mcp"
	return c
}

// startHAProxy runs scripts/haproxy.cfg in front of the server lines
// servers, its files in dir, and returns the address it listens on once
// it answers a readiness check.
func startHAProxy(t *testing.T, dir, haproxyBin, servers string) string {
	t.Helper()
	lb := "127.0.0.1:" + freePort(t)
	cfg := filepath.Join(dir, "haproxy.cfg")
	if err := os.WriteFile(cfg, []byte(haproxyConfig(t, lb, servers)), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(haproxyBin, "-c", "-q", "-f", cfg).CombinedOutput(); err != nil {
		t.Fatalf("haproxy -c: %v\n%s", err, out)
	}
	start(t, dir, "haproxy", haproxyBin, "-db", "-f", cfg)
	waitFor(t, "haproxy", func() error { return ready("http://" + lb + "/readyz") })
	return lb
}

// haproxyConfig is scripts/haproxy.cfg, the balancer scripts/replicas.sh
// runs, listening on bind, with the server lines servers.
func haproxyConfig(t *testing.T, bind, servers string) string {
	t.Helper()
	tmpl, err := os.ReadFile(filepath.Join("..", "..", "scripts", "haproxy.cfg"))
	if err != nil {
		t.Fatal(err)
	}
	return strings.NewReplacer("@BIND@", bind, "@SERVERS@\n", servers).Replace(string(tmpl))
}

// kill ends replica i with SIGKILL, as a crash or the OOM killer would.
func (c *cluster) kill(t *testing.T, i int) {
	t.Helper()
	cmd := c.replicas[i]
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
}

// rpc sends one 2026-07-28 request (sessionless, with the tasks extension)
// through HAProxy and returns the JSON-RPC response; name is the Mcp-Name
// header.
func (c *cluster) rpc(t *testing.T, method, name, params string) map[string]any {
	t.Helper()
	return rpcAt(t, c.url, method, name, params)
}

// rpcAt is rpc sent to url (a replica's own endpoint, or HAProxy's).
func rpcAt(t *testing.T, url, method, name, params string) map[string]any {
	t.Helper()
	const caps = `{"extensions":{"io.modelcontextprotocol/tasks":{}}}`
	body := `{"jsonrpc":"2.0","id":1,"method":"` + method + `","params":{` + params +
		`,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":` + caps + `}}}`
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", method)
	req.Header.Set("Mcp-Name", name)
	client := &http.Client{Timeout: 30 * time.Second}
	res, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	data = bytes.TrimSpace(data)
	if i := bytes.Index(data, []byte("data: ")); i >= 0 {
		data = data[i+len("data: "):]
	}
	var resp map[string]any
	if err := json.Unmarshal(data, &resp); err != nil {
		t.Fatalf("%s: HTTP %d %q: %v", method, res.StatusCode, data, err)
	}
	return resp
}

// start runs a process of the test's own, its output in dir/name.log,
// killed at the test's end; a failed test shows the log's tail.
func start(t *testing.T, dir, name, bin string, args ...string) *exec.Cmd {
	t.Helper()
	logPath := filepath.Join(dir, name+".log")
	out, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
		out.Close()
		if t.Failed() {
			if data, err := os.ReadFile(logPath); err == nil {
				t.Logf("%s's output:\n%s", name, tail(data, 40))
			}
		}
	})
	return cmd
}

func tail(data []byte, lines int) []byte {
	for i := len(data) - 2; i >= 0; i-- {
		if data[i] == '\n' {
			if lines--; lines == 0 {
				return data[i+1:]
			}
		}
	}
	return data
}

// freePort is a port a replica or HAProxy can bind a moment later: one
// that binds now, below the kernel's ephemeral range. A port the kernel
// hands out for ":0" lies inside that range, where an outgoing connection
// can take it between the check and the bind (scripts/replicas.sh lost
// its Redis that way in CI).
func freePort(t *testing.T) string {
	t.Helper()
	low := 32768
	if data, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range"); err == nil {
		if f := strings.Fields(string(data)); len(f) == 2 {
			if n, err := strconv.Atoi(f[0]); err == nil && n > 11000 {
				low = n
			}
		}
	}
	for range 200 {
		port := strconv.Itoa(10000 + rand.IntN(low-10000))
		if l, err := net.Listen("tcp", "127.0.0.1:"+port); err == nil {
			l.Close()
			return port
		}
	}
	t.Fatal("no free port below the ephemeral range")
	return ""
}

// waitFor polls ready until it succeeds, for up to 30 seconds.
func waitFor(t *testing.T, what string, ready func() error) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		err := ready()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s not ready within 30s: %v", what, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// ready asks vurb's readiness at url: 200 while the replica serves and
// is not draining.
func ready(url string) error {
	client := &http.Client{Timeout: 2 * time.Second}
	res, err := client.Get(url)
	if err != nil {
		return err
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %s", url, res.Status)
	}
	return nil
}
