package vurb_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/store"
	"github.com/vurb-go/vurb/vurbtest"
)

// The limits under load, through go-sdk clients in memory. Nothing here
// depends on how fast the machine is: the expected figures are computed
// from the token bucket's arithmetic over the time actually measured.
const (
	loadRate    = 200 // calls per second
	loadBurst   = 40
	loadWorkers = 8 // clients, each with two callers
)

// paced runs calls on loadWorkers clients, call i no earlier than start +
// i/perSecond, until the duration has passed, and returns how many calls
// were accepted, the refusals' texts and the time from the first call sent
// to the last one answered.
func paced(t *testing.T, clients []*vurbtest.Client, name string, perSecond float64, d time.Duration) (accepted int, refused []string, elapsed time.Duration) {
	t.Helper()
	var next atomic.Int64
	var mu sync.Mutex
	var wg sync.WaitGroup
	start := time.Now()
	n := int64(perSecond * d.Seconds())
	for _, c := range append(clients, clients...) {
		wg.Go(func() {
			for {
				i := next.Add(1) - 1
				if i >= n {
					return
				}
				time.Sleep(time.Until(start.Add(time.Duration(float64(i) / perSecond * float64(time.Second)))))
				res, err := c.CallResult(name, echoIn{"x"})
				mu.Lock()
				switch {
				case err != nil:
					t.Errorf("call %d: %v", i, err)
				case res.IsError:
					refused = append(refused, texts(res)[0])
				default:
					accepted++
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return accepted, refused, time.Since(start)
}

func clientsOf(t *testing.T, app *vurb.App, n int) []*vurbtest.Client {
	cs := make([]*vurbtest.Client, n)
	for i := range cs {
		cs[i] = vurbtest.New(t, app)
	}
	return cs
}

// rateRecorder is a RateStore around a MemoryRateStore that records each
// decision with the exact time its bucket saw: the store's clock records
// it, under the rateRecorder's lock, which puts the decisions in order.
type rateRecorder struct {
	inner store.Rates
	mu    sync.Mutex
	at    time.Time
	seen  map[string][]decision
}

type decision struct {
	at time.Time
	ok bool
}

func newRateRecorder() *rateRecorder {
	r := &rateRecorder{seen: map[string][]decision{}}
	r.inner = vurb.NewMemoryRateStoreClock(0, func() time.Time { r.at = time.Now(); return r.at })
	return r
}

func (r *rateRecorder) Take(ctx context.Context, key string, rate store.Rate) (bool, time.Duration, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	ok, after, err := r.inner.Take(ctx, key, rate)
	r.seen[key] = append(r.seen[key], decision{r.at, ok})
	return ok, after, err
}

// decisions returns the decisions of the one bucket whose key starts with
// scope.
func (r *rateRecorder) decisions(t *testing.T, scope string) []decision {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	for k, ds := range r.seen {
		if strings.HasPrefix(k, scope) {
			return ds
		}
	}
	t.Fatalf("no bucket for %s", scope)
	return nil
}

// replay runs the decisions through a token bucket of rate r written out
// here, and fails on any the limiter made otherwise: a call refused while
// the bucket held a token (below the rate), or one accepted without. It
// returns the tokens lost to a full bucket, which nobody asked for.
func replay(t *testing.T, ds []decision, r store.Rate) (refused int, unasked float64) {
	t.Helper()
	const eps = 1e-6 // float arithmetic
	perSecond, burst := float64(r.Calls)/r.Per.Seconds(), float64(r.Burst)
	tokens, last := burst, ds[0].at
	for i, d := range ds {
		tokens += perSecond * d.at.Sub(last).Seconds()
		last = d.at
		if tokens > burst {
			unasked += tokens - burst
			tokens = burst
		}
		switch {
		case d.ok && tokens < 1-eps:
			t.Fatalf("call %d accepted with %.4f tokens in the bucket", i, tokens)
		case !d.ok && tokens >= 1+eps:
			t.Fatalf("call %d refused with %.4f tokens in the bucket: below the rate", i, tokens)
		case d.ok:
			tokens--
		default:
			refused++
		}
	}
	return refused, unasked
}

// Every decision of the limiter, replayed through a token bucket of the
// configured rate at the times the store saw the calls, is the bucket's:
// no call is refused below the rate. Below it (calls paced at 90% of the
// rate), no call is refused at all unless the machine bunched them past
// the burst, which the replay would show. Above it (twice the rate), the
// calls accepted over the time measured by the clients are the burst plus
// the configured rate, within 5%.
func TestRateLimitHoldsUnderLoad(t *testing.T) {
	store := newRateRecorder()
	app := vurb.New(vurb.WithRateStore(store))
	limit := vurb.AllCallers(loadRate, time.Second).Burst(loadBurst)
	vurb.Query(app, "under.rate", echo).RateLimit(limit)
	vurb.Query(app, "over.rate", echo).RateLimit(limit)
	clients := clientsOf(t, app, loadWorkers)

	below := 0.9 * loadRate
	accepted, refused, elapsed := paced(t, clients, "under_rate", below, time.Second)
	justified, _ := replay(t, store.decisions(t, "under.rate#"), limit.Rate())
	t.Logf("below the rate: %d calls at %.0f/s in %v, %d refused", accepted+len(refused), below, elapsed.Round(time.Millisecond), len(refused))
	if len(refused) != justified {
		t.Fatalf("%d calls refused, %d of them with an empty bucket", len(refused), justified)
	}
	if len(refused) > 0 {
		t.Logf("the machine bunched calls paced below the rate past the burst; each refusal found the bucket empty, such as %q", refused[0])
	}

	accepted, refused, elapsed = paced(t, clients, "over_rate", 2*loadRate, 2*time.Second)
	_, unasked := replay(t, store.decisions(t, "over.rate#"), limit.Rate())
	rate := float64(accepted-loadBurst) / elapsed.Seconds()
	t.Logf("above the rate: %d calls offered at %d/s in %v; %d accepted: burst %d + %.1f/s (configured %d/s, %+.2f%%); %d refused; %.1f tokens unasked",
		accepted+len(refused), 2*loadRate, elapsed.Round(time.Millisecond), accepted, loadBurst, rate, loadRate,
		100*(rate-loadRate)/loadRate, len(refused), unasked)
	// Tokens that came while no call was waiting (the machine stalled
	// every caller for longer than the burst lasts) are no fault of the
	// limiter's; on a quiet machine there are none.
	held := (float64(accepted-loadBurst) + unasked) / elapsed.Seconds()
	if off := (held - loadRate) / loadRate; off < -0.05 || off > 0.05 {
		t.Errorf("accepted %.1f calls/s over %v; want %d within 5%%", held, elapsed, loadRate)
	}
	// A token comes every 5 ms: no refusal asks to wait longer.
	want := regexp.MustCompile(`^\[over_rate\] rate limit reached \(200 calls per second\); retry in [1-5]ms, not sooner$`)
	for _, text := range refused {
		if !want.MatchString(text) {
			t.Fatalf("refusal %q; want %s", text, want)
		}
	}
}

// Under 32 callers at once, an action capped at 4 never runs more than 4
// handlers, and with a wait long enough none is refused; without a wait,
// the calls past the cap are refused and the cap still holds.
func TestMaxConcurrentHoldsUnderLoad(t *testing.T) {
	t.Parallel()
	const capped, callers, calls = 4, 32, 20
	var running, most atomic.Int64
	work := func(_ context.Context, in echoIn) (string, error) {
		n := running.Add(1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		time.Sleep(time.Millisecond)
		running.Add(-1)
		return in.Text, nil
	}
	app := vurb.New()
	vurb.Query(app, "jobs.wait", work).MaxConcurrent(capped, 10*time.Second)
	vurb.Query(app, "jobs.refuse", work).MaxConcurrent(capped, 0)
	clients := clientsOf(t, app, loadWorkers)

	for _, tc := range []struct {
		name    string
		refuses bool
	}{{"jobs_wait", false}, {"jobs_refuse", true}} {
		most.Store(0)
		var ok, refused atomic.Int64
		var wg sync.WaitGroup
		for i := range callers {
			c := clients[i%len(clients)]
			wg.Go(func() {
				for range calls {
					res, err := c.CallResult(tc.name, echoIn{"x"})
					switch {
					case err != nil:
						t.Error(err)
					case !res.IsError:
						ok.Add(1)
					case strings.HasSuffix(texts(res)[0], fmt.Sprintf("this action's limit of concurrent calls (%d) is reached and none ended within 0s; retry in a few seconds", capped)):
						refused.Add(1)
					default:
						t.Errorf("unexpected answer %q", texts(res)[0])
					}
				}
			})
		}
		wg.Wait()
		t.Logf("%s: %d calls from %d callers, at most %d handlers at once (cap %d), %d refused",
			tc.name, callers*calls, callers, most.Load(), capped, refused.Load())
		if most.Load() > capped {
			t.Errorf("%s: %d handlers ran at once; the cap is %d", tc.name, most.Load(), capped)
		}
		if !tc.refuses {
			if refused.Load() != 0 || ok.Load() != callers*calls {
				t.Errorf("%s: %d refused, %d answered; want none refused", tc.name, refused.Load(), ok.Load())
			}
			if most.Load() != capped {
				t.Errorf("%s: at most %d handlers at once under %d callers; want the cap, %d, reached", tc.name, most.Load(), callers, capped)
			}
		}
	}
}

// Results past the cap are cut, each with the note, however many are
// answered at once.
func TestMaxOutputUnderLoad(t *testing.T) {
	t.Parallel()
	const limit = 64 << 10
	big := strings.Repeat("x", 2*limit)
	app := vurb.New(vurb.WithMaxOutput(limit))
	vurb.Query(app, "dump.all", func(context.Context, struct{}) (string, error) { return big, nil })
	clients := clientsOf(t, app, loadWorkers)
	note := fmt.Sprintf("[dump_all] output truncated to %d of %d bytes; "+
		"narrow the request (a filter, fewer fields, a smaller page) to get the rest", limit, len(big))
	var wg sync.WaitGroup
	for i := range 2 * loadWorkers {
		c := clients[i%len(clients)]
		wg.Go(func() {
			res, err := c.CallResult("dump_all", nil)
			if err != nil {
				t.Error(err)
				return
			}
			if got := texts(res); len(got) != 2 || got[0] != big[:limit] || got[1] != note {
				t.Errorf("%d text blocks, the first of %d bytes; want %d bytes and the note", len(got), len(got[0]), limit)
			}
		})
	}
	wg.Wait()
}
