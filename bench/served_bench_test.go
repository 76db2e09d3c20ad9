package bench

import (
	"fmt"
	"testing"
)

// BenchmarkServed is the served call, what users feel: docs_search served
// by each contender from its own process, called over loopback HTTP by 1,
// 8 and 64 concurrent clients (stateful and stateless) and over stdio by
// one client. b.N calls are shared between the clients; ns/op is wall time
// per call. Metrics: calls/s, p50-µs and p99-µs (client side), and the
// SERVER's cpu-µs/call, B/call and allocs/call (B/op and allocs/op of
// -benchmem are the load generator's). Sessions and connections are set up
// before the timer, each client makes one warm-up call, and the server's
// snapshots are taken outside the timer (but their own small cost is in
// the server's figures: see stats).
//
// Run alone, one contender after another, a burst of load on this shared
// machine can land on any of them: TestServedTable interleaves them in
// rounds and is the one to quote.
func BenchmarkServed(b *testing.B) {
	for _, tr := range servedTransports {
		b.Run("transport="+tr.name, func(b *testing.B) {
			fleet := newServedFleet(b)
			defer fleet.close()
			for _, n := range tr.clients {
				b.Run(fmt.Sprintf("clients=%d", n), func(b *testing.B) {
					for _, name := range servedContenders {
						if !servedSupports(name, tr.name) {
							continue
						}
						b.Run("contender="+name, func(b *testing.B) {
							benchServed(b, fleet.get(name, tr.name), n)
						})
					}
				})
			}
		})
	}
}

func benchServed(b *testing.B, p *servedProc, clients int) {
	callers, err := p.dial(clients)
	if err != nil {
		b.Fatal(err)
	}
	defer func() {
		if err := closeCallers(callers); err != nil {
			b.Error(err)
		}
	}()
	if _, err := runBurst(callers, callBudget(clients), 1); err != nil {
		b.Fatal(err)
	}
	before, err := p.stats()
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	calls, err := runBurst(callers, callBudget(b.N), b.N/clients+1)
	b.StopTimer()
	if err != nil {
		b.Fatal(err)
	}
	after, err := p.stats()
	if err != nil {
		b.Fatal(err)
	}
	r, err := newServedResult(calls, before, after)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(r.callsPerSec, "calls/s")
	b.ReportMetric(r.p50Micros, "p50-µs")
	b.ReportMetric(r.p99Micros, "p99-µs")
	b.ReportMetric(r.cpuMicros, "cpu-µs/call")
	b.ReportMetric(r.bytes, "B/call")
	b.ReportMetric(r.allocs, "allocs/call")
}
