package engine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/store"
)

// DefaultRateLimited is the RateLimited message of a runtime that sets
// none (%s: the rate, %s: when to retry).
const DefaultRateLimited = "rate limit reached (%s); retry in %s, not sooner"

// Rate is store.Rate: the engine calls a store with the user's own type.
type Rate = store.Rate

// RateStore is store.Rates.
type RateStore = store.Rates

// RateRule is one rate limit of an action.
type RateRule struct {
	// Name is the scope that declared the limit, stable from one replica
	// to the next: every action it covers shares its buckets.
	Name string
	Rate Rate
	// Key names the caller's bucket; nil means one bucket for every
	// caller. It gets a copy of the call's origin, so that the origin of a
	// call without such a limit stays on the stack.
	Key func(ctx context.Context, o Origin) string
}

// checkRate spends a token of rule's bucket for the call, or returns the
// refusal. A store that fails lets the call through, logged: a limiter
// that is down must not take the server down with it.
func (ep *Endpoint) checkRate(ctx context.Context, rule *RateRule, o *Origin) *mcp.CallToolResult {
	key := rule.Name
	if rule.Key != nil {
		key += "\x00" + boundedKey(rule.Key(ctx, *o))
	}
	ok, after, err := ep.rt.RateStore.Take(ctx, key, rule.Rate)
	if err != nil {
		ep.rt.Logger.Error("vurb: rate store failed; the call goes through unlimited",
			"tool", ep.tool, "action", ep.action, "limit", rule.Name, "err", err.Error())
		return nil
	}
	if ok {
		return nil
	}
	msg := ep.rt.Messages.RateLimited
	if msg == "" {
		msg = DefaultRateLimited
	}
	return ErrorResult(ep.prefix + fmt.Sprintf(msg, rule.Rate, RetryAfter(after)))
}

// RetryAfter rounds d up to a figure a model reads at a glance: whole
// milliseconds under a second, tenths of a second under ten, whole
// seconds above. Rounding up keeps the advice sound: a retry after that
// long finds a token.
func RetryAfter(d time.Duration) time.Duration {
	step := time.Second
	switch {
	case d <= 0:
		return time.Millisecond
	case d < time.Second:
		step = time.Millisecond
	case d < 10*time.Second:
		step = 100 * time.Millisecond
	}
	return (d + step - 1) / step * step
}

// maxCallerKey is the longest caller part of a bucket's name kept as it
// is; a longer one (a header a client chose, up to a megabyte) is named by
// its SHA-256, so a store's memory is bounded by its number of buckets.
const maxCallerKey = 128

func boundedKey(k string) string {
	if len(k) <= maxCallerKey {
		return k
	}
	sum := sha256.Sum256([]byte(k))
	return "sha256:" + hex.EncodeToString(sum[:])
}
