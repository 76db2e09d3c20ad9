package bench

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// serverStats mirrors internal/servedserver's Stats: a server process's
// CPU time and allocation totals since it started.
type serverStats struct {
	CPUNanos   int64  `json:"cpu_ns"`
	AllocBytes uint64 `json:"alloc_bytes"`
	Allocs     uint64 `json:"allocs"`
}

// statsClient has a connection of its own, so that a snapshot never waits
// behind the load.
var statsClient = &http.Client{Transport: &http.Transport{}, Timeout: 10 * time.Second}

// stats takes a snapshot of p's totals. The snapshot's own cost (an HTTP
// request and a ReadMemStats, a few tens of µs and allocations) falls
// inside a measured burst once; it is noise beside bursts of thousands of
// calls, and it dominates only the one-call smoke run.
func (p *servedProc) stats() (serverStats, error) {
	var s serverStats
	resp, err := statsClient.Get("http://" + p.statsAddr + "/stats")
	if err != nil {
		return s, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return s, fmt.Errorf("GET /stats: %s", resp.Status)
	}
	err = json.NewDecoder(resp.Body).Decode(&s)
	return s, err
}

// perCall is the server's cost of each of calls, from the snapshots
// before and after them.
func perCall(before, after serverStats, calls int) (cpuMicros, bytes, allocs float64) {
	n := float64(calls)
	return float64(after.CPUNanos-before.CPUNanos) / 1e3 / n,
		float64(after.AllocBytes-before.AllocBytes) / n,
		float64(after.Allocs-before.Allocs) / n
}
