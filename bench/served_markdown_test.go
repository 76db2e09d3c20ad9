package bench

import (
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
)

// servedReport is what TestServedTable found: the medians per cell and
// the load around it.
type servedReport struct {
	cfg                   servedTableConfig
	started               time.Time
	loadBefore, loadAfter string
	loads                 []roundLoad
	medians               map[servedCell]servedResult
}

// servedMedians is the median of each figure of each cell over its rounds,
// each figure on its own (the median calls/s and the median p99 may come
// from different rounds).
func servedMedians(results map[servedCell][]servedResult) map[servedCell]servedResult {
	out := make(map[servedCell]servedResult, len(results))
	for cell, rs := range results {
		pick := func(f func(servedResult) float64) float64 {
			v := make([]float64, len(rs))
			for i, r := range rs {
				v[i] = f(r)
			}
			return median(v)
		}
		out[cell] = servedResult{
			callsPerSec: pick(func(r servedResult) float64 { return r.callsPerSec }),
			p50Micros:   pick(func(r servedResult) float64 { return r.p50Micros }),
			p99Micros:   pick(func(r servedResult) float64 { return r.p99Micros }),
			cpuMicros:   pick(func(r servedResult) float64 { return r.cpuMicros }),
			bytes:       pick(func(r servedResult) float64 { return r.bytes }),
			allocs:      pick(func(r servedResult) float64 { return r.allocs }),
			calls:       int(pick(func(r servedResult) float64 { return float64(r.calls) })),

			clientCPUMicros: pick(func(r servedResult) float64 { return r.clientCPUMicros }),
		}
	}
	return out
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	slices.Sort(v)
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}

// markdown is the table, in scenario order, with the CPU per call of each
// contender beside the go-sdk raw server's in the same scenario, and a
// note of the settings and the load.
func (r servedReport) markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Served `docs_search`: medians of %d interleaved rounds, %v per burst after %v of warm-up; %s, %s, GOMAXPROCS %d on %d CPUs.\n\n",
		r.cfg.rounds, r.cfg.burst, r.cfg.warmUp, r.started.Format("2006-01-02 15:04"), runtime.Version(), runtime.GOMAXPROCS(0), runtime.NumCPU())
	b.WriteString("| contender | transport | clients | calls/s | p50 µs | p99 µs | server CPU µs/call | CPU × gosdk-raw | server B/call | server allocs/call | load generator CPU µs/call |\n")
	b.WriteString("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, tr := range servedTransports {
		for _, n := range tr.clients {
			raw := r.medians[servedCell{"gosdk-raw", tr.name, n}]
			for _, name := range servedContenders {
				m, ok := r.medians[servedCell{name, tr.name, n}]
				if !ok {
					continue
				}
				fmt.Fprintf(&b, "| %s | %s | %d | %s | %s | %s | %.1f | %.2f× | %s | %.0f | %.0f |\n",
					name, tr.name, n, thousands(m.callsPerSec), micros(m.p50Micros), micros(m.p99Micros),
					m.cpuMicros, m.cpuMicros/raw.cpuMicros, thousands(m.bytes), m.allocs, m.clientCPUMicros)
			}
		}
	}
	fmt.Fprintf(&b, "\nLoad: 1-minute load average %s before, %s after; per round, CPU taken by other processes and by the hypervisor (steal), as shares of the %d CPUs: %s.\n",
		r.loadBefore, r.loadAfter, runtime.NumCPU(), joinLoads(r.loads))
	return b.String()
}

func joinLoads(loads []roundLoad) string {
	s := make([]string, len(loads))
	for i, l := range loads {
		s[i] = l.String()
	}
	return strings.Join(s, "; ")
}

// micros writes a latency with the digits that mean something.
func micros(us float64) string {
	if us >= 100 {
		return thousands(us)
	}
	return strconv.FormatFloat(us, 'f', 1, 64)
}

// thousands writes v rounded, with thousands separated by commas.
func thousands(v float64) string {
	s := strconv.FormatInt(int64(v+0.5), 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
