package bench

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/schema"
)

// resultSink keeps the compiler from dropping what a part computes.
var resultSink any

// BenchmarkParts measures, one by one, the steps an in-process f.Call
// takes beyond the floor, with the same library calls vurb's hot path makes
// (see call.go: endpoint.exec). They explain the gap between
// BenchmarkCall and BenchmarkFloor; they are not promises.
func BenchmarkParts(b *testing.B) {
	ctx := context.Background()
	b.Run("part=schema-decode", func(b *testing.B) {
		// vurb's strict decoder: pre-scan, json.Unmarshal, validator.Struct.
		codec := schema.For[Search]()
		b.ReportAllocs()
		for b.Loop() {
			in := new(Search)
			if err := codec.Decode(searchArgs, in, schema.DecodeOptions{}); err != nil {
				b.Fatal(err)
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
		// The per-call deadline: a timerCtx, its timer, its Done channel.
		b.ReportAllocs()
		for b.Loop() {
			tctx, cancel := context.WithTimeout(ctx, vurb.DefaultTimeout)
			_ = tctx.Done()
			cancel()
		}
	})
	b.Run("part=goroutine-handoff", func(b *testing.B) {
		// The handler on its own goroutine, its answer back on a reused
		// buffered channel, waited for in a select with the deadline.
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
	b.Run("part=time-now", func(b *testing.B) {
		// One clock read; the observer path makes three.
		b.ReportAllocs()
		for b.Loop() {
			_ = time.Now()
		}
	})
}
