package bench

import (
	"testing"
	"time"

	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/presenter"
)

// BenchmarkPresenterPaired interleaves, in one loop, batches of calls of
// rows.list (PresPage, a struct of 10 rows) in three apps:
//
//   - none: no presenter;
//   - elsewhere: a presenter of another type (PresOther), which no result
//     of the action reaches: Build leaves the action's encoder as it is;
//   - presented: a presenter of PresRow with a rule, a redaction and a
//     suggestion, for what presenting costs.
//
// It reports each one's ns and allocations per call, and the ratio of
// elsewhere to none, which is 1 when an app pays nothing for presenters
// its results do not meet.
func BenchmarkPresenterPaired(b *testing.B) {
	const batch = 32
	type PresOther struct {
		Secret string `json:"secret"`
	}
	elsewhere := presApp(vurb.WithPresenters(presenter.New[PresOther]().Redact("secret").Rules("other")))
	presented := presApp(vurb.WithPresenters(presenter.New[PresRow]().
		Rules("amount_cents is in cents").
		Redact("card").
		Suggest(func(r PresRow) []presenter.Suggestion { return []presenter.Suggestion{{Action: "t0.a0"}} })))
	names := []string{"none", "elsewhere", "presented"}
	calls := []func() error{presCall(presApp()), presCall(elsewhere), presCall(presented)}
	allocs := make([]float64, len(calls))
	for i, call := range calls {
		if err := call(); err != nil {
			b.Fatal(err)
		}
		allocs[i] = testing.AllocsPerRun(100, func() { _ = call() })
	}
	totals := make([]time.Duration, len(calls))
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		for k := range calls {
			i := (n + k) % len(calls)
			start := time.Now()
			for range batch {
				if err := calls[i](); err != nil {
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
	for i, name := range names {
		b.ReportMetric(float64(totals[i].Nanoseconds())/float64(n*batch), name+"-ns/call")
		b.ReportMetric(allocs[i], name+"-allocs/call")
	}
	b.ReportMetric(float64(totals[1])/float64(totals[0]), "elsewhere/none")
	b.ReportMetric(float64(totals[2])/float64(totals[0]), "presented/none")
}
