package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/schema"
)

// resultSink keeps the compiler from dropping what a part computes.
var resultSink any

// BenchmarkParts measures, one by one, the steps an in-process f.Call
// takes or avoids beyond the floor (see call.go: endpoint.exec). They
// explain the gap between BenchmarkCall and BenchmarkFloor, and what the
// hot path's design saves; they are not promises.
// callTimeout is vurb's default call deadline (WithTimeout: 30 s).
const callTimeout = 30 * time.Second

func BenchmarkParts(b *testing.B) {
	ctx := context.Background()
	b.Run("part=schema-decode", func(b *testing.B) {
		// vurb's strict decoder: the pre-scan, then json.Unmarshal and
		// validator.Struct.
		codec := schema.For[Search]()
		b.ReportAllocs()
		for b.Loop() {
			in := new(Search)
			if err := codec.Decode(searchArgs, in, schema.DecodeOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("part=discriminator-lookup", func(b *testing.B) {
		// What grouped exposition adds before decoding: reading "action"
		// out of the arguments (a second scan of the whole document).
		args := json.RawMessage(`{"action":"a9","query":"golang","limit":10}`)
		b.ReportAllocs()
		for b.Loop() {
			if _, found, err := schema.Lookup(args, "action", schema.DecodeOptions{Limits: schema.Limits{}}); err != nil || !found {
				b.Fatal(found, err)
			}
		}
	})
	b.Run("part=json+validator", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			in := new(Search)
			if err := json.Unmarshal(searchArgs, in); err != nil {
				b.Fatal(err)
			}
			if err := validate.Struct(in); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("part=context-timeout", func(b *testing.B) {
		// An up-front per-call deadline: a timerCtx, its timer, its Done
		// channel. vurb makes it only when a handler waits on ctx.
		b.ReportAllocs()
		for b.Loop() {
			tctx, cancel := context.WithTimeout(ctx, callTimeout)
			_ = tctx.Done()
			cancel()
		}
	})
	b.Run("part=pooled-timer", func(b *testing.B) {
		// The deadline as one reused timer: Reset and Stop, no allocation;
		// what vurb pays when a handler has not answered by the time the
		// caller is back from yielding to it.
		t := time.NewTimer(time.Hour)
		t.Stop()
		b.ReportAllocs()
		for b.Loop() {
			t.Reset(callTimeout)
			t.Stop()
		}
	})
	b.Run("part=goroutine-handoff", func(b *testing.B) {
		// A fresh goroutine per call, its answer back on a reused buffered
		// channel, waited for in a select: what vurb did before its pooled
		// workers.
		done := make(chan string, 1)
		stop := make(chan struct{})
		b.ReportAllocs()
		for b.Loop() {
			go func(done chan<- string) { done <- wantText }(done)
			select {
			case <-done:
			case <-stop:
			}
		}
	})
	b.Run("part=text-result", func(b *testing.B) {
		// What a string Out becomes: CallToolResult, Content slice, TextContent.
		b.ReportAllocs()
		for b.Loop() {
			resultSink = vurb.Text(wantText)
		}
	})
	// A chain of pass-through layers built and called with no vurb around
	// it, on the benchmark's own (grown) stack: what a layer costs in Go on
	// this machine, the floor of BenchmarkMiddleware's per-layer figure.
	for _, layers := range []int{0, 100} {
		b.Run(fmt.Sprintf("part=bare-chain/layers=%d", layers), func(b *testing.B) {
			h := vurb.Handler(func(context.Context, *vurb.Call) (*mcp.CallToolResult, error) { return nil, nil })
			for range layers {
				h = passThrough(h)
			}
			call := &vurb.Call{}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := h(ctx, call); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("part=time-now", func(b *testing.B) {
		// One clock read; the observer path makes three.
		b.ReportAllocs()
		for b.Loop() {
			_ = time.Now()
		}
	})
}
