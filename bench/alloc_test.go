package bench

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/vurb-go/vurb"
)

// TestRoutingAddsNoAllocations holds two promises that benchmarks alone
// would only report: a call allocates as much in an app of 100,000 actions
// as in one of 10 (both expositions), and under 100 pass-through
// middleware layers as under none.
func TestRoutingAddsNoAllocations(t *testing.T) {
	allocs := func(app *vurb.App, name string, args json.RawMessage) float64 {
		app.Build()
		checkResult(t, app, name, args)
		ctx := context.Background()
		return testing.AllocsPerRun(100, func() {
			if _, err := app.Call(ctx, name, args); err != nil {
				t.Fatal(err)
			}
		})
	}
	for _, exp := range []vurb.Exposition{vurb.Flat, vurb.Grouped} {
		small := allocs(defineApp(10, exp))
		large := allocs(defineApp(100_000, exp))
		t.Logf("%s: %v allocs per call with 10 actions, %v with 100,000", exp, small, large)
		if large > small {
			t.Errorf("%s: 100,000 actions cost %v allocations per call, 10 actions %v", exp, large, small)
		}
	}
	app, name, args := defineApp(10, vurb.Flat)
	none := allocs(app, name, args)
	app, name, args = defineApp(10, vurb.Flat)
	for range 100 {
		app.Use(passThrough)
	}
	deep := allocs(app, name, args)
	t.Logf("%v allocs per call with no middleware, %v with 100 layers", none, deep)
	if deep > none {
		t.Errorf("100 middleware layers cost %v allocations per call, none %v", deep, none)
	}
}
