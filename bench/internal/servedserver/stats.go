package main

import (
	"encoding/json"
	"net/http"
	"runtime"
	"syscall"
)

// Stats is what GET /stats answers: the process's totals since it
// started. The load generator takes one before and one after a burst and
// divides the difference by the calls in between. The field names are the
// wire format the bench package reads.
type Stats struct {
	// CPUNanos is user plus system CPU time of the whole process
	// (getrusage), so it counts the garbage collector and the runtime too.
	CPUNanos int64 `json:"cpu_ns"`
	// AllocBytes and Allocs are runtime.MemStats.TotalAlloc and Mallocs,
	// the counters behind go test's B/op and allocs/op.
	AllocBytes uint64 `json:"alloc_bytes"`
	Allocs     uint64 `json:"allocs"`
}

// readStats reads the totals. ReadMemStats stops the world for a moment,
// which is why it is taken only around bursts, never during one.
func readStats() (Stats, error) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return Stats{}, err
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return Stats{
		CPUNanos:   ru.Utime.Nano() + ru.Stime.Nano(),
		AllocBytes: ms.TotalAlloc,
		Allocs:     ms.Mallocs,
	}, nil
}

// serveStats is the /stats endpoint, kept outside the MCP path.
func serveStats(w http.ResponseWriter, _ *http.Request) {
	s, err := readStats()
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(s)
}
