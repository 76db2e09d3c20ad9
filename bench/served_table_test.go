package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// TestServedTable measures every served contender in interleaved rounds
// and prints a Markdown table of the medians. It is skipped unless
// SERVED=1:
//
//	SERVED=1 go test -run TestServedTable -v -timeout 30m
//
// In each round, every scenario (transport, number of clients) runs each
// contender's burst in turn, the first contender rotating from round to
// round, so that a burst of load from elsewhere on this shared machine
// hits every contender alike; the table shows the median of each figure
// over the rounds. Each burst opens its clients (and sessions), warms up,
// then calls for a fixed time. Settings, all optional:
//
//	SERVED_ROUNDS=5         rounds
//	SERVED_BURST=1s         timed calls per burst
//	SERVED_WARMUP=200ms     untimed calls before each burst
//	SERVED_OUT=file.md      also write the table there
//	SERVED_CONTENDERS=a,b   only these contenders (and SERVED_TRANSPORTS)
//	SERVED_BASE=path        adds vurb-base: the vurb contender of the
//	                        servedserver binary at path (another build)
//	SERVED_PROFILE_DIR=dir  CPU and allocation profiles of every server:
//	                        dir/<contender>-<transport>.cpu.prof and .mem.prof
func TestServedTable(t *testing.T) {
	if os.Getenv("SERVED") == "" {
		t.Skip("set SERVED=1 to measure the served table (about 2.5 minutes with the defaults)")
	}
	cfg := servedTableConfig{
		rounds: envInt(t, "SERVED_ROUNDS", 5),
		burst:  envDuration(t, "SERVED_BURST", time.Second),
		warmUp: envDuration(t, "SERVED_WARMUP", 200*time.Millisecond),
	}
	fleet := newServedFleet(t)
	if dir := os.Getenv("SERVED_PROFILE_DIR"); dir != "" {
		fleet.extra = func(contender, transport string) []string {
			base := filepath.Join(dir, contender+"-"+transport)
			return []string{"-cpuprofile", base + ".cpu.prof", "-memprofile", base + ".mem.prof"}
		}
	}
	defer fleet.close()
	var procs []*servedProc // every server starts before the first round
	for _, tr := range servedTransports {
		for _, name := range servedContenders {
			if servedSupports(name, tr.name) {
				procs = append(procs, fleet.get(name, tr.name))
			}
		}
	}

	results := map[servedCell][]servedResult{}
	report := servedReport{cfg: cfg, started: time.Now(), loadBefore: loadAverage()}
	for round := range cfg.rounds {
		watch := watchLoad(procs)
		for _, tr := range servedTransports {
			for _, n := range tr.clients {
				for k := range servedContenders {
					name := servedContenders[(k+round)%len(servedContenders)]
					if !servedSupports(name, tr.name) {
						continue
					}
					cell := servedCell{name, tr.name, n}
					r, err := measureCell(fleet.get(name, tr.name), n, cfg)
					if err != nil {
						t.Fatalf("round %d, %v: %v", round+1, cell, err)
					}
					results[cell] = append(results[cell], r)
				}
			}
		}
		load := watch.stop(procs)
		report.loads = append(report.loads, load)
		t.Logf("round %d/%d done: %v, load average %s", round+1, cfg.rounds, load, loadAverage())
	}
	report.loadAfter = loadAverage()
	report.medians = servedMedians(results)

	md := report.markdown()
	fmt.Print(md)
	if out := os.Getenv("SERVED_OUT"); out != "" {
		if err := os.WriteFile(out, []byte(md), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

type servedTableConfig struct {
	rounds        int
	burst, warmUp time.Duration
}

// servedCell is one row of the table.
type servedCell struct {
	contender, transport string
	clients              int
}

// measureCell is one burst: open the clients, warm up, measure, close.
func measureCell(p *servedProc, clients int, cfg servedTableConfig) (r servedResult, err error) {
	callers, err := p.dial(clients)
	if err != nil {
		return r, err
	}
	defer func() {
		if cerr := closeCallers(callers); err == nil {
			err = cerr
		}
	}()
	expect := int(cfg.burst/(20*time.Microsecond))/clients + 16 // room for 50,000 calls/s
	if _, err := runBurst(callers, timeBudget(cfg.warmUp), expect/4); err != nil {
		return r, err
	}
	return measureServed(p, callers, timeBudget(cfg.burst), expect)
}

func envInt(t *testing.T, key string, def int) int {
	v := os.Getenv(key)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		t.Fatalf("%s=%q: want a positive integer", key, v)
	}
	return n
}

func envDuration(t *testing.T, key string, def time.Duration) time.Duration {
	v := os.Getenv(key)
	if v == "" {
		return def
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		t.Fatalf("%s=%q: want a positive duration", key, v)
	}
	return d
}
