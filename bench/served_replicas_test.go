package bench

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vurb-go/vurb/internal/redisserver"
)

// TestServedReplicas measures vurb served by 1, 2 and 3 replicas (the
// vurb contender of internal/servedserver, each a process of its own
// started with -redis) on one redis-server, behind HAProxy in round robin
// with no affinity (scripts/replicas.sh's configuration), for sessionless
// calls (revision 2026-07-28) and handshake-era session calls (2025-11-25,
// sessions in Redis), with 8 and 64 clients; and, as the baseline, one
// process reached directly, without HAProxy or Redis. It prints a
// Markdown table of the medians over the rounds: calls per second, the
// latency, the servers' CPU per call (all replicas together), and the
// Redis commands per call (INFO commandstats before and after each timed
// burst, INFO itself left out). It is skipped unless REPLICAS_BENCH=1:
//
//	REPLICAS_BENCH=1 go test -run TestServedReplicas -v -timeout 30m
//
// REPLICAS_ROUNDS (3), SERVED_BURST (1s) and SERVED_WARMUP (200ms) change
// the rounds; REPLICAS_OUT=file.md also writes the table there;
// REPLICAS_CELLS=text measures only the rows whose description (as the
// test logs it) contains text; REPLICAS_PROFILE_DIR=dir has every replica write
// dir/<transport>-r<i>.cpu.prof and .mem.prof. It needs
// redis-server and haproxy (Debian's packages).
func TestServedReplicas(t *testing.T) {
	if os.Getenv("REPLICAS_BENCH") == "" {
		t.Skip("set REPLICAS_BENCH=1 to measure served replicas behind HAProxy (about 2 minutes)")
	}
	haproxy, err := exec.LookPath("haproxy")
	if err != nil {
		if haproxy = "/usr/sbin/haproxy"; !fileExists(haproxy) {
			t.Fatal("haproxy not found: apt-get install haproxy")
		}
	}
	cfg := servedTableConfig{
		rounds: envInt(t, "REPLICAS_ROUNDS", 3),
		burst:  envDuration(t, "SERVED_BURST", time.Second),
		warmUp: envDuration(t, "SERVED_WARMUP", 200*time.Millisecond),
	}
	redis := redisserver.Start(t)
	redisURL := "redis://" + redis.Addr

	// Every process starts before the first round: per transport, three
	// replicas with -redis and one without (the baseline); one HAProxy
	// with a frontend per transport and number of replicas.
	var procs []*servedProc
	defer func() {
		for _, p := range procs {
			p.close()
		}
	}()
	start := func(transport string, extra ...string) *servedProc {
		p, err := startServed(t, "vurb", transport, extra...)
		if err != nil {
			t.Fatal(err)
		}
		procs = append(procs, p)
		return p
	}
	var lb strings.Builder
	var cells []replicaCell
	for _, tr := range replicaTransports {
		direct := start(tr)
		var replicas []*servedProc
		for i := range 3 {
			args := []string{"-redis", redisURL}
			if dir := os.Getenv("REPLICAS_PROFILE_DIR"); dir != "" {
				base := filepath.Join(dir, fmt.Sprintf("%s-r%d", tr, i))
				args = append(args, "-cpuprofile", base+".cpu.prof", "-memprofile", base+".mem.prof")
			}
			replicas = append(replicas, start(tr, args...))
		}
		for _, clients := range []int{8, 64} {
			cells = append(cells, replicaCell{transport: tr, clients: clients, addr: direct.addr, procs: []*servedProc{direct}})
		}
		for n := 1; n <= 3; n++ {
			port := freePort(t)
			fmt.Fprintf(&lb, "\nfrontend %s_%d\n\tbind 127.0.0.1:%s\n\tdefault_backend %s_%d\n", tr, n, port, tr, n)
			fmt.Fprintf(&lb, "\nbackend %s_%d\n\tbalance roundrobin\n\toption httpchk\n\thttp-check send meth GET uri /stats\n\thttp-check expect status 200\n", tr, n)
			for i, p := range replicas[:n] {
				fmt.Fprintf(&lb, "\tserver r%d %s check inter 1s fall 2 rise 1\n", i, p.addr)
			}
			for _, clients := range []int{8, 64} {
				cells = append(cells, replicaCell{transport: tr, clients: clients, replicas: n, addr: "127.0.0.1:" + port, procs: replicas[:n]})
			}
		}
	}
	startHAProxy(t, haproxy, haproxyDefaults(t)+lb.String())
	if only := os.Getenv("REPLICAS_CELLS"); only != "" {
		cells = slices.DeleteFunc(cells, func(c replicaCell) bool { return !strings.Contains(c.String(), only) })
	}

	results := map[int][]replicaResult{} // by cell
	for round := range cfg.rounds {
		for i, c := range cells {
			r, err := measureReplicas(c, redis.Addr, cfg)
			if err != nil {
				t.Fatalf("round %d, %s: %v", round+1, c, err)
			}
			t.Logf("round %d, %s: %.0f calls/s, %.3f Redis commands per call", round+1, c, r.callsPerSec, r.redisPerCall)
			results[i] = append(results[i], r)
		}
	}
	table := replicasMarkdown(cells, results, cfg)
	fmt.Println(table)
	if out := os.Getenv("REPLICAS_OUT"); out != "" {
		if err := os.WriteFile(out, []byte(table), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// replicaTransports are servedserver's transports measured: sessionless
// calls, and calls in handshake-era sessions.
var replicaTransports = []string{"http-2026", "http-stateful"}

// haproxyDefaults is the global and defaults sections of
// scripts/haproxy.cfg, the balancer scripts/replicas.sh runs, less their
// logging: a line per request would cost HAProxy time the table measures.
func haproxyDefaults(t *testing.T) string {
	t.Helper()
	tmpl, err := os.ReadFile(filepath.Join("..", "scripts", "haproxy.cfg"))
	if err != nil {
		t.Fatal(err)
	}
	head, _, ok := strings.Cut(string(tmpl), "\nfrontend ")
	if !ok {
		t.Fatal("scripts/haproxy.cfg has no frontend section")
	}
	var out strings.Builder
	for line := range strings.Lines(head) {
		switch fields := strings.Fields(line); {
		case len(fields) > 0 && fields[0] == "log",
			len(fields) > 1 && fields[0] == "option" && (fields[1] == "httplog" || fields[1] == "logasap"):
			continue
		}
		out.WriteString(line)
	}
	return out.String()
}

// replicaCell is one row of the table: a transport and a number of
// clients, through HAProxy to that many replicas, or (replicas 0) to one
// process directly.
type replicaCell struct {
	transport string
	clients   int
	replicas  int
	addr      string // where the clients connect
	procs     []*servedProc
}

func (c replicaCell) String() string {
	if c.replicas == 0 {
		return fmt.Sprintf("%s, %d clients, one process direct", c.transport, c.clients)
	}
	return fmt.Sprintf("%s, %d clients, %d replica(s) behind HAProxy", c.transport, c.clients, c.replicas)
}

type replicaResult struct {
	callsPerSec, p50Micros, p99Micros, cpuMicros, redisPerCall float64
	redisCommands                                              map[string]int64
}

// measureReplicas opens the cell's clients (and sessions), warms up, then
// runs one timed burst between snapshots of every replica's totals and of
// Redis's command counts.
func measureReplicas(c replicaCell, redisAddr string, cfg servedTableConfig) (replicaResult, error) {
	var callers []caller
	for range c.clients {
		hc, err := dialHTTP(c.addr, c.transport)
		if err != nil {
			closeCallers(callers)
			return replicaResult{}, err
		}
		callers = append(callers, hc)
	}
	defer closeCallers(callers)
	if _, err := runBurst(callers, timeBudget(cfg.warmUp), 64); err != nil {
		return replicaResult{}, fmt.Errorf("warm-up: %v", err)
	}
	before := make([]serverStats, len(c.procs))
	for i, p := range c.procs {
		var err error
		if before[i], err = p.stats(); err != nil {
			return replicaResult{}, err
		}
	}
	redisBefore, err := redisCommandStats(redisAddr)
	if err != nil {
		return replicaResult{}, err
	}
	b, err := runBurst(callers, timeBudget(cfg.burst), 1024)
	if err != nil {
		return replicaResult{}, err
	}
	redisAfter, err := redisCommandStats(redisAddr)
	if err != nil {
		return replicaResult{}, err
	}
	r := replicaResult{
		callsPerSec:   float64(b.calls) / b.wall.Seconds(),
		p50Micros:     float64(percentile(b.lat, 50)) / 1e3,
		p99Micros:     float64(percentile(b.lat, 99)) / 1e3,
		redisCommands: map[string]int64{},
	}
	for i, p := range c.procs {
		after, err := p.stats()
		if err != nil {
			return replicaResult{}, err
		}
		cpu, _, _ := perCall(before[i], after, b.calls)
		r.cpuMicros += cpu
	}
	var total int64
	for cmd, n := range redisAfter {
		if d := n - redisBefore[cmd]; d > 0 && cmd != "info" {
			r.redisCommands[cmd] = d
			total += d
		}
	}
	r.redisPerCall = float64(total) / float64(b.calls)
	return r, nil
}

// replicasMarkdown is the table of the medians over the rounds, with the
// Redis commands the timed bursts sent, by name, summed over the rounds.
func replicasMarkdown(cells []replicaCell, results map[int][]replicaResult, cfg servedTableConfig) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "vurb served by replicas on one redis-server behind HAProxy round robin: median of %d rounds, %v bursts after %v warm-up, %s, load average %s\n\n",
		cfg.rounds, cfg.burst, cfg.warmUp, time.Now().UTC().Format("2006-01-02"), loadAverage())
	sb.WriteString("| calls | clients | served by | calls/s | p50 | p99 | servers' CPU/call | Redis commands/call | Redis commands (all rounds) |\n")
	sb.WriteString("|---|---:|---|---:|---:|---:|---:|---:|---|\n")
	for i, c := range cells {
		rs := results[i]
		pick := func(f func(replicaResult) float64) float64 {
			v := make([]float64, len(rs))
			for j, r := range rs {
				v[j] = f(r)
			}
			return median(v)
		}
		kind := "sessionless (2026-07-28)"
		if c.transport == "http-stateful" {
			kind = "session (2025-11-25)"
		}
		by := "1 process, direct, no Redis"
		if c.replicas > 0 {
			by = fmt.Sprintf("%d replica(s), HAProxy", c.replicas)
		}
		cmds := map[string]int64{}
		for _, r := range rs {
			for k, n := range r.redisCommands {
				cmds[k] += n
			}
		}
		var names []string
		for k, n := range cmds {
			names = append(names, k+" "+strconv.FormatInt(n, 10))
		}
		slices.Sort(names)
		fmt.Fprintf(&sb, "| %s | %d | %s | %s | %s | %s | %s | %.4f | %s |\n", kind, c.clients, by,
			thousands(pick(func(r replicaResult) float64 { return r.callsPerSec })),
			micros(pick(func(r replicaResult) float64 { return r.p50Micros })),
			micros(pick(func(r replicaResult) float64 { return r.p99Micros })),
			micros(pick(func(r replicaResult) float64 { return r.cpuMicros })),
			pick(func(r replicaResult) float64 { return r.redisPerCall }),
			strings.Join(names, ", "))
	}
	return sb.String()
}

// redisCommandStats is INFO commandstats: the calls of every command name
// since the server started.
func redisCommandStats(addr string) (map[string]int64, error) {
	conn, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.WriteString(conn, "INFO commandstats\r\n"); err != nil {
		return nil, err
	}
	br := bufio.NewReader(conn)
	head, err := br.ReadString('\n')
	if err != nil {
		return nil, err
	}
	size, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(head, "$")))
	if err != nil || !strings.HasPrefix(head, "$") {
		return nil, fmt.Errorf("INFO commandstats: answer %q", head)
	}
	body := make([]byte, size+2)
	if _, err := io.ReadFull(br, body); err != nil {
		return nil, err
	}
	stats := map[string]int64{}
	// cmdstat_get:calls=12,usec=34,...
	for line := range strings.Lines(string(body)) {
		name, rest, ok := strings.Cut(strings.TrimSpace(line), ":calls=")
		if !ok {
			continue
		}
		calls, _, _ := strings.Cut(rest, ",")
		n, err := strconv.ParseInt(calls, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("INFO commandstats: %q", line)
		}
		stats[strings.TrimPrefix(name, "cmdstat_")] = n
	}
	return stats, nil
}

// startHAProxy checks cfg with haproxy -c, then runs HAProxy with it until
// the test ends.
func startHAProxy(t *testing.T, haproxy, cfg string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "haproxy.cfg")
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(haproxy, "-c", "-q", "-f", path).CombinedOutput(); err != nil {
		t.Fatalf("haproxy -c: %v\n%s\n%s", err, out, cfg)
	}
	cmd := exec.Command(haproxy, "-db", "-f", path)
	log := new(tailLog)
	cmd.Stdout, cmd.Stderr = logWriter{log}, logWriter{log}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("haproxy's output:\n%s", log)
		}
	})
	// Ready when every frontend accepts connections and its servers are
	// up (the first health check passes within a second).
	deadline := time.Now().Add(10 * time.Second)
	for line := range strings.Lines(cfg) {
		addr, ok := strings.CutPrefix(strings.TrimSpace(line), "bind ")
		if !ok {
			continue
		}
		for {
			conn, err := net.DialTimeout("tcp", addr, time.Second)
			if err == nil {
				conn.Close()
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("haproxy: %s not listening within 10 s: %v", addr, err)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	time.Sleep(1500 * time.Millisecond)
}

// logWriter feeds a process's output to a tailLog, line by line.
type logWriter struct{ log *tailLog }

func (w logWriter) Write(p []byte) (int, error) {
	for line := range strings.Lines(string(p)) {
		w.log.add(strings.TrimRight(line, "\n"))
	}
	return len(p), nil
}

func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
