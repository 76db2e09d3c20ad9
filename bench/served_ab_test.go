package bench

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
)

// The served A/B of issue #12 (temporary): SERVED_CONTENDERS may name
// vurb variants with hot-path mechanisms switched off ("vurb+plain",
// "vurb+go+mw100", see internal/servedserver/ab.go), measured beside the
// others.
func init() {
	for _, c := range strings.Split(os.Getenv("SERVED_CONTENDERS"), ",") {
		if strings.HasPrefix(c, "vurb+") && !slices.Contains(servedContenders, c) {
			servedContenders = append(servedContenders, c)
		}
	}
}

// SERVED_CLIENTS=8,64 keeps only those numbers of HTTP clients (temporary).
func init() {
	only := os.Getenv("SERVED_CLIENTS")
	if only == "" {
		return
	}
	keep := strings.Split(only, ",")
	for i, tr := range servedTransports {
		if tr.name == "stdio" {
			continue
		}
		var ns []int
		for _, n := range tr.clients {
			if slices.Contains(keep, strconv.Itoa(n)) {
				ns = append(ns, n)
			}
		}
		servedTransports[i].clients = ns
	}
}

// writeServedRaw writes every round's figures of every cell to
// SERVED_RAW in the benchmark format, for benchstat (temporary).
func writeServedRaw(results map[servedCell][]servedResult) error {
	out := os.Getenv("SERVED_RAW")
	if out == "" {
		return nil
	}
	var b strings.Builder
	b.WriteString("goos: linux\ngoarch: amd64\npkg: github.com/vurb-go/vurb/bench\n")
	cells := make([]servedCell, 0, len(results))
	for c := range results {
		cells = append(cells, c)
	}
	slices.SortFunc(cells, func(a, b servedCell) int {
		return strings.Compare(fmt.Sprint(a.transport, a.clients, a.contender), fmt.Sprint(b.transport, b.clients, b.contender))
	})
	for _, c := range cells {
		for _, r := range results[c] {
			fmt.Fprintf(&b, "BenchmarkServedAB/transport=%s/clients=%d/contender=%s 1 %.1f calls/s %.1f p50-µs %.1f p99-µs %.2f cpu-µs/call %.0f B/call %.1f allocs/call\n",
				c.transport, c.clients, c.contender, r.callsPerSec, r.p50Micros, r.p99Micros, r.cpuMicros, r.bytes, r.allocs)
		}
	}
	return os.WriteFile(out, []byte(b.String()), 0o644)
}
