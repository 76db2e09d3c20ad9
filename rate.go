package vurb

import (
	"context"
	"time"

	"github.com/vurb-go/vurb/internal/engine"
	"github.com/vurb-go/vurb/internal/limit"
	"github.com/vurb-go/vurb/store"
)

// RateLimit is a rate limit on the calls of the scope that declares it:
// the app (WithRateLimit), a tool, a group or an action (their RateLimit
// methods). Make one with PerCaller or AllCallers.
type RateLimit struct{ rule limit.Rule }

// PerCaller allows each caller calls per per, with bursts of as many (see
// RateLimit.Burst). Callers are told apart by their token's subject, else
// (anonymous over HTTP) by the host they connect from (over IPv6, its
// /64), so that opening a new session does not refill the bucket, else by
// their session; anonymous callers with neither (stdio, in-process) share
// one bucket.
// KeyedBy tells them apart otherwise: by tenant, say, or by the client
// address a reverse proxy of yours puts in X-Forwarded-For, since behind a
// proxy every anonymous caller connects from the proxy's host.
func PerCaller(calls int, per time.Duration) RateLimit {
	return RateLimit{limit.NewRule("PerCaller", calls, per, limit.CallerBucket)}
}

// AllCallers allows calls per per, all callers together, with bursts of as
// many (see RateLimit.Burst): a budget for what the scope's handlers
// reach (a paid API, a database).
func AllCallers(calls int, per time.Duration) RateLimit {
	return RateLimit{limit.NewRule("AllCallers", calls, per, nil)}
}

// Burst returns the limit with bursts of n calls: a caller whose bucket is
// full can make n calls at once. It defaults to the limit's calls; n must
// be 1 or more.
func (r RateLimit) Burst(n int) RateLimit { return RateLimit{r.rule.WithBurst(n)} }

// KeyedBy returns the limit with a bucket per value of key: calls for
// which key returns the same string share a bucket. key runs once per
// call, before the handler, and must be fast; keep the strings short and
// few (a tenant id, a user id), as the store keeps a bucket for each.
// Read the key from what the server verified (a claim of c.Token), never
// from a header the client writes: a client naming a new tenant on every
// call would get a fresh bucket each time.
//
//	byTenant := vurb.PerCaller(100, time.Minute).KeyedBy(func(_ context.Context, c *vurb.Caller) string {
//		if c.Token == nil {
//			return "anonymous"
//		}
//		tenant, _ := c.Token.Extra["tenant"].(string)
//		return "tenant:" + tenant
//	})
func (r RateLimit) KeyedBy(key func(ctx context.Context, c *Caller) string) RateLimit {
	if key == nil {
		panic("vurb: RateLimit.KeyedBy(nil): give a function that names the caller's bucket")
	}
	r.rule.Key = func(ctx context.Context, o engine.Origin) string { return key(ctx, callerOf(&o)) }
	return r
}

// Rate returns the limit's token bucket.
func (r RateLimit) Rate() store.Rate { return r.rule.Rate }

// RateLimit adds rate limits on the calls of the tool, all its actions
// together.
func (t *Tool) RateLimit(limits ...RateLimit) *Tool {
	t.mustBeMutable()
	addRates(&t.limits, limits)
	return t
}

// RateLimit adds rate limits on the calls of the group, all its actions
// together.
func (g *Group) RateLimit(limits ...RateLimit) *Group {
	g.tool.mustBeMutable()
	addRates(&g.limits, limits)
	return g
}

// RateLimit adds rate limits on the action's calls. A call must pass these
// and those of its group, its tool and the app; a refused call is answered
// with Messages.RateLimited, which tells the model when to retry.
func (a *ActionDef) RateLimit(limits ...RateLimit) *ActionDef {
	a.mustBeMutable()
	addRates(&a.limits, limits)
	return a
}

func addRates(s *limitSet, limits []RateLimit) {
	for _, l := range limits {
		s.Rates = append(s.Rates, l.rule)
	}
}
