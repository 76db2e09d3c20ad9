package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/schema/jsonschema"
)

// searchQueries are what a model searches with: a tool's words, other
// words, a sentence, a long and odd one.
var searchQueries = []string{
	"list invoices",
	"give the customer their money back",
	"u_12 forgot their login credentials, help them set new ones",
	"wipe out the whole Old Drafts directory including its contents",
	"deploy rollback restart service logs metrics alerts on-call schedule calendar email files users invoices payments",
}

// catalogApp is the tool search test set's app (internal/search/testdata,
// 205 actions in 15 domains) copied until it has n actions, each copy's
// tools named apart, served with tool search in exposition e.
func catalogApp(b *testing.B, n int, e vurb.Exposition, opts ...vurb.Option) *vurb.App {
	data, err := os.ReadFile("../internal/search/testdata/catalog.json")
	if err != nil {
		b.Fatal(err)
	}
	var actions []struct {
		Name, Description string
		Params            []struct{ Name, Type, Description string }
		Tags              []string
	}
	if err := json.Unmarshal(data, &actions); err != nil {
		b.Fatal(err)
	}
	app := vurb.New(append([]vurb.Option{vurb.WithToolSearch(), vurb.WithExposition(e)}, opts...)...)
	for i := 0; i < n; i++ {
		a := actions[i%len(actions)]
		props := map[string]any{}
		for _, p := range a.Params {
			if p.Name == "action" {
				p.Name = "kind" // grouped exposition's discriminator
			}
			props[p.Name] = map[string]any{"type": p.Type, "description": p.Description}
		}
		doc, _ := json.Marshal(map[string]any{"type": "object", "properties": props, "additionalProperties": false})
		name := a.Name
		if copy := i / len(actions); copy > 0 {
			name = fmt.Sprintf("c%d_%s", copy, name)
		}
		vurb.Query(app, name, func(context.Context, json.RawMessage) (string, error) { return "ok", nil }).
			Describe(a.Description).Tags(a.Tags...).InputSchema(jsonschema.MustCodec(doc))
	}
	app.Build()
	return app
}

// BenchmarkSearchTools is an in-process call of search_tools (App.Call:
// the whole pipeline, the result encoded) over apps of 205 and 10,000
// actions, the queries in turn; p50 and p99 are of single calls. With
// views, a visibility rule hides a domain from the caller, whose search
// then asks its view of every action it would return.
func BenchmarkSearchTools(b *testing.B) {
	hide := vurb.WithVisibility(func(*vurb.Caller) string { return "guest" },
		func(_ string, a vurb.ActionInfo) bool { return !strings.HasSuffix(a.Tool, "invoices") })
	for _, e := range []vurb.Exposition{vurb.Flat, vurb.Grouped} {
		for _, n := range []int{205, 10_000} {
			for _, views := range []bool{false, true} {
				b.Run(fmt.Sprintf("exposition=%s/actions=%d/views=%t", e, n, views), func(b *testing.B) {
					var opts []vurb.Option
					if views {
						opts = append(opts, hide)
					}
					app := catalogApp(b, n, e, opts...)
					args := make([]json.RawMessage, len(searchQueries))
					for i, q := range searchQueries {
						args[i], _ = json.Marshal(map[string]any{"query": q})
					}
					ctx := context.Background()
					took := make([]time.Duration, 0, b.N)
					b.ReportAllocs()
					b.ResetTimer()
					for i := 0; b.Loop(); i++ {
						start := time.Now()
						res, err := app.Call(ctx, "search_tools", args[i%len(args)])
						took = append(took, time.Since(start))
						if err != nil || res.IsError {
							b.Fatal(err, res)
						}
					}
					slices.Sort(took)
					b.ReportMetric(float64(took[len(took)/2].Microseconds()), "p50-µs")
					b.ReportMetric(float64(took[len(took)*99/100].Microseconds()), "p99-µs")
				})
			}
		}
	}
}
