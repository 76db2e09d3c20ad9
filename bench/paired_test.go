package bench

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/vurb-go/vurb"
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
	timed := make([]func() error, len(calls))
	for i, call := range calls {
		timed[i] = func() error { _, err := call(ctx); return err }
	}
	n, totals := interleave(b, timed)
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

// interleave times calls in one loop, one call of each per iteration in
// rotating order, and returns the iterations run and each call's total
// time.
func interleave(b *testing.B, calls []func() error) (int, []time.Duration) {
	totals := make([]time.Duration, len(calls))
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		for k := range calls {
			i := (n + k) % len(calls)
			start := time.Now()
			if err := calls[i](); err != nil {
				b.Fatal(err)
			}
			totals[i] += time.Since(start)
		}
		n++
	}
	return n, totals
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

// BenchmarkCallPaired interleaves the in-process contenders the targets
// compare: the floor, f.Call in apps of 10 and 100,000 actions (both
// expositions), and under 0 and 100 middleware layers with the handler on
// its own goroutine and inline. Each iteration runs a batch of callBatch
// calls of each, in rotating order, timed as a whole so that the clock
// read is amortised. The metrics are ns per call and the target ratios;
// ns/layer is (100 layers - none) / 100.
func BenchmarkCallPaired(b *testing.B) {
	const callBatch = 32
	ctx := context.Background()
	type contender struct {
		name string
		call func() error
	}
	vurbCall := func(app *vurb.App, name string, args json.RawMessage) func() error {
		app.Build()
		checkResult(b, app, name, args)
		return func() error { _, err := app.Call(ctx, name, args); return err }
	}
	layered := func(layers int, opts ...vurb.Option) func() error {
		app, name, args := defineApp(10, vurb.Flat, opts...)
		for range layers {
			app.Use(passThrough)
		}
		return vurbCall(app, name, args)
	}
	inline := vurb.WithInlineHandlers()
	cs := []contender{
		{"floor", func() error { _, err := floorCall(ctx, searchArgs); return err }},
		{"flat-10", vurbCall(defineApp(10, vurb.Flat))},
		{"flat-100000", vurbCall(defineApp(100_000, vurb.Flat))},
		{"grouped-10", vurbCall(defineApp(10, vurb.Grouped))},
		{"grouped-100000", vurbCall(defineApp(100_000, vurb.Grouped))},
		{"layers-100", layered(100)},
		{"inline-0", layered(0, inline)},
		{"inline-100", layered(100, inline)},
	}
	totals := make([]time.Duration, len(cs))
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		for k := range cs {
			i := (n + k) % len(cs)
			start := time.Now()
			for range callBatch {
				if err := cs[i].call(); err != nil {
					b.Fatal(err)
				}
			}
			totals[i] += time.Since(start)
		}
		n++
	}
	if n == 0 {
		return
	}
	per := func(name string) float64 {
		for i, c := range cs {
			if c.name == name {
				return float64(totals[i].Nanoseconds()) / float64(n*callBatch)
			}
		}
		panic(name)
	}
	for _, c := range cs {
		b.ReportMetric(per(c.name), c.name+"-ns/call")
	}
	b.ReportMetric(per("flat-100000")/per("flat-10"), "flat-100000/flat-10")
	b.ReportMetric(per("grouped-100000")/per("grouped-10"), "grouped-100000/grouped-10")
	b.ReportMetric(per("flat-10")/per("floor"), "flat-10/floor")
	b.ReportMetric(per("grouped-10")/per("floor"), "grouped-10/floor")
	b.ReportMetric(per("inline-0")/per("floor"), "inline-0/floor")
	b.ReportMetric((per("layers-100")-per("flat-10"))/100, "goroutine-ns/layer")
	b.ReportMetric((per("inline-100")-per("inline-0"))/100, "inline-ns/layer")
}
