package bench

import (
	"context"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/store"
)

// BenchmarkRateLimit is one in-process call of an app of 1,000 actions
// (the same pipeline a served call takes) without a rate limit, with one
// bucket for all callers, and with a bucket per caller (the token's
// subject), the rate so high that no call is refused: what a rate check
// adds to a call that passes it. "store" is the memory store's Take alone.
func BenchmarkRateLimit(b *testing.B) {
	lots := vurb.AllCallers(1_000_000_000, time.Second)
	modes := []struct {
		name string
		opts []vurb.Option
	}{
		{"none", nil},
		{"all-callers", []vurb.Option{vurb.WithRateLimit(lots)}},
		{"per-caller", []vurb.Option{vurb.WithRateLimit(vurb.PerCaller(1_000_000_000, time.Second))}},
	}
	ctx := vurb.ContextWithCaller(context.Background(), &vurb.Caller{Token: &auth.TokenInfo{UserID: "alice"}})
	for _, m := range modes {
		b.Run("limit="+m.name, func(b *testing.B) {
			app, name, args := defineApp(1_000, vurb.Flat, m.opts...)
			if res, err := app.Call(ctx, name, args); err != nil || res.IsError {
				b.Fatalf("unexpected answer: %v %v", err, resultText(res))
			}
			b.ReportAllocs()
			for b.Loop() {
				_, _ = app.Call(ctx, name, args)
			}
		})
	}
	b.Run("store", func(b *testing.B) {
		s := store.NewMemoryRates(0)
		r := lots.Rate()
		b.ReportAllocs()
		for b.Loop() {
			_, _, _ = s.Take(context.Background(), "t0.*#0", r)
		}
	})
}
