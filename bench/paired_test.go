package bench

import (
	"context"
	"testing"
	"time"
)

// The paired benchmarks time two or more contenders inside the same loop,
// one call of each per iteration in rotating order, and report each one's
// mean and their ratios as custom metrics. On a noisy machine a burst of
// load then hits every contender alike, so the ratios hold even when the
// absolute figures of the separate benchmarks (BenchmarkRoundTrip,
// BenchmarkAttach) swing from one -count run to the next. ns/op is the
// whole iteration, every contender included.

// BenchmarkRoundTripPaired is BenchmarkRoundTrip with the go-sdk peers
// interleaved. mcp-go is left out: the go-sdk peers' garbage (about
// 380 KiB per call) would be collected on its time and inflate its figure.
func BenchmarkRoundTripPaired(b *testing.B) {
	names := []string{"vurb", "gosdk-raw", "gosdk-generic"}
	calls := make([]func(context.Context) (string, error), len(names))
	for i, name := range names {
		for _, p := range peers {
			if p.name == name {
				call, closeFn := p.setup(b)
				defer closeFn()
				calls[i] = call
			}
		}
	}
	ctx := context.Background()
	for i, call := range calls {
		if got, err := call(ctx); err != nil || got != wantText {
			b.Fatalf("%s: %q, %v; want %q", names[i], got, err, wantText)
		}
	}
	totals := make([]time.Duration, len(calls))
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		for k := range calls {
			i := (n + k) % len(calls)
			start := time.Now()
			if _, err := calls[i](ctx); err != nil {
				b.Fatal(err)
			}
			totals[i] += time.Since(start)
		}
		n++
	}
	reportPaired(b, n, names, totals, [][2]int{{0, 1}, {0, 2}})
}

// BenchmarkAttachPaired is BenchmarkAttach's three attach variants
// interleaved, each on a fresh server made outside its own timing.
func BenchmarkAttachPaired(b *testing.B) {
	names := []string{"vurb", "raw-rawmessage", "raw-jsonschema"}
	_, attach := attachVariants(b)
	totals := make([]time.Duration, len(names))
	n := 0
	for b.Loop() {
		for k := range attach {
			i := (n + k) % len(attach)
			s := newServer()
			start := time.Now()
			attach[i](s)
			totals[i] += time.Since(start)
		}
		n++
	}
	reportPaired(b, n, names, totals, [][2]int{{0, 1}, {0, 2}})
}

// reportPaired reports each contender's mean time and the ratios of the
// given pairs (first over second).
func reportPaired(b *testing.B, n int, names []string, totals []time.Duration, ratios [][2]int) {
	if n == 0 {
		return
	}
	for i, name := range names {
		b.ReportMetric(float64(totals[i].Nanoseconds())/float64(n), name+"-ns/op")
	}
	for _, r := range ratios {
		b.ReportMetric(float64(totals[r[0]])/float64(totals[r[1]]), names[r[0]]+"/"+names[r[1]])
	}
}
