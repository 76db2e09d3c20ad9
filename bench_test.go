package vurb_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/vurb-go/vurb"
)

// Search is the small input every hot-path measurement uses: a required
// string and an optional bounded int.
type Search struct {
	Query string `json:"query" validate:"required" description:"Search text"`
	Limit *int   `json:"limit,omitempty" validate:"omitempty,min=1,max=100" description:"Page size"`
}

func search(_ context.Context, in Search) (string, error) { return in.Query, nil }

var searchArgs = json.RawMessage(`{"query":"golang","limit":10}`)

// hotApp is an app with one small action, in exposition exp, built.
func hotApp(exp vurb.Exposition, opts ...vurb.Option) (app *vurb.App, name string, args json.RawMessage) {
	app = vurb.New(append([]vurb.Option{vurb.WithExposition(exp)}, opts...)...)
	vurb.Query(app, "docs.search", search)
	app.Build()
	if exp == vurb.Grouped {
		return app, "docs", json.RawMessage(`{"action":"search","query":"golang","limit":10}`)
	}
	return app, "docs_search", searchArgs
}

// benchCalls times app.Call(name, args), the loop every hot-path
// benchmark shares.
func benchCalls(b *testing.B, app *vurb.App, name string, args json.RawMessage) {
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := app.Call(ctx, name, args); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCall(b *testing.B) {
	for _, exp := range []vurb.Exposition{vurb.Flat, vurb.Grouped} {
		b.Run(exp.String(), func(b *testing.B) {
			app, name, args := hotApp(exp)
			benchCalls(b, app, name, args)
		})
	}
}

// maxCallAllocs is what one in-process call of the small action allocates
// today, decoding and validation included. A change that adds allocations
// to the hot path fails TestCallAllocations; one that removes some should
// lower these figures. 11 measured: 13 before the rules were proved
// without the validator (bench/README.md, "A session call's own costs"),
// 17 before segmentio's decoder; an in-process call still makes its
// context.WithDeadline, since the hand-off waits on its Done.
var maxCallAllocs = map[vurb.Exposition]float64{vurb.Flat: 11, vurb.Grouped: 11}

func TestCallAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	for _, exp := range []vurb.Exposition{vurb.Flat, vurb.Grouped} {
		app, name, args := hotApp(exp)
		ctx := context.Background()
		got := testing.AllocsPerRun(200, func() {
			if _, err := app.Call(ctx, name, args); err != nil {
				t.Fatal(err)
			}
		})
		t.Logf("%s: %.0f allocations per call", exp, got)
		if got > maxCallAllocs[exp] {
			t.Errorf("%s: App.Call allocates %.0f times per call; the limit is %.0f", exp, got, maxCallAllocs[exp])
		}
	}
}

func BenchmarkCallInline(b *testing.B) {
	app, name, args := hotApp(vurb.Flat, vurb.WithInlineHandlers())
	benchCalls(b, app, name, args)
}
