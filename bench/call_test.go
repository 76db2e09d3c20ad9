package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/observe"
)

// actionCounts are the app sizes of the scaling benchmark.
var actionCounts = []int{10, 1_000, 100_000}

// BenchmarkCall is f.Call of one small action in apps of 10, 1,000 and
// 100,000 actions, in both expositions (see layout for how the actions are
// spread over tools). The app is defined and built before the timed loop.
func BenchmarkCall(b *testing.B) {
	for _, exp := range []vurb.Exposition{vurb.Flat, vurb.Grouped} {
		for _, n := range actionCounts {
			b.Run(fmt.Sprintf("exposition=%s/actions=%d", exp, n), func(b *testing.B) {
				app, name, args := defineApp(n, exp)
				app.Build()
				benchCall(b, app, name, args)
			})
		}
	}
}

// BenchmarkMiddleware is f.Call of the same action (app of 10 actions, flat)
// under 0, 1, 10 and 100 app-level layers that only call next, with the
// handler on its own goroutine (the default) and on the caller's
// (vurb.WithInlineHandlers).
func BenchmarkMiddleware(b *testing.B) {
	modes := []struct {
		name string
		opts []vurb.Option
	}{{"goroutine", nil}, {"inline", []vurb.Option{vurb.WithInlineHandlers()}}}
	for _, mode := range modes {
		for _, layers := range []int{0, 1, 10, 100} {
			b.Run(fmt.Sprintf("handlers=%s/layers=%d", mode.name, layers), func(b *testing.B) {
				app, name, args := defineApp(10, vurb.Flat, mode.opts...)
				for range layers {
					app.Use(passThrough)
				}
				app.Build()
				benchCall(b, app, name, args)
			})
		}
	}
}

// BenchmarkObserver is the same call without an observer and with one
// that does nothing.
func BenchmarkObserver(b *testing.B) {
	b.Run("observer=none", func(b *testing.B) {
		app, name, args := defineApp(10, vurb.Flat)
		app.Build()
		benchCall(b, app, name, args)
	})
	b.Run("observer=noop", func(b *testing.B) {
		app, name, args := defineApp(10, vurb.Flat, vurb.WithObserver(func(context.Context, observe.Event) {}))
		app.Build()
		benchCall(b, app, name, args)
	})
}

// BenchmarkFloor is what an in-process call cannot go below with these
// libraries: encoding/json into the struct, validator.Struct and a direct
// call of the handler; and the direct call alone.
func BenchmarkFloor(b *testing.B) {
	ctx := context.Background()
	b.Run("floor=decode+validate+call", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := floorCall(ctx, searchArgs); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("floor=call", func(b *testing.B) {
		limit := 10
		in := Search{Query: "golang", Limit: &limit}
		b.ReportAllocs()
		for b.Loop() {
			if out, err := searchHandler(ctx, in); err != nil || out != wantText {
				b.Fatal(out, err)
			}
		}
	})
}

// floorCall decodes, validates and calls the handler directly.
func floorCall(ctx context.Context, args json.RawMessage) (string, error) {
	var in Search
	if err := json.Unmarshal(args, &in); err != nil {
		return "", err
	}
	if err := validate.Struct(&in); err != nil {
		return "", err
	}
	return searchHandler(ctx, in)
}

func benchCall(b *testing.B, app *vurb.App, name string, args json.RawMessage) {
	ctx := context.Background()
	// One untimed call checks the result, so a broken fixture cannot post a
	// fast figure.
	checkResult(b, app, name, args)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := app.Call(ctx, name, args); err != nil {
			b.Fatal(err)
		}
	}
}

func checkResult(tb testing.TB, app *vurb.App, name string, args json.RawMessage) {
	tb.Helper()
	res, err := app.Call(context.Background(), name, args)
	if err != nil {
		tb.Fatal(err)
	}
	if got := resultText(res); res.IsError || got != wantText {
		tb.Fatalf("%s: result %q (isError %v), want %q", name, got, res.IsError, wantText)
	}
}
