package engine

import (
	"context"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// An action's limits protect what its handler reaches (a database, a paid
// API) and the model's context window: rate limits per caller or for all
// callers (limit_rate.go), a cap on its handlers running at once with a
// bounded wait for a slot (limit_concurrency.go), and a cap on the text of
// its results (limit_output.go). A call refused by a limit is answered
// with an error result the model can act on (when to retry), and the
// observer sees it end OutcomeLimited. Limits count calls whose arguments
// are valid: a call the validator refuses never spends a token or a slot,
// so a model correcting its arguments reads the validation problems, not a
// limit.

// Limits are an action's limits, resolved across its levels (app, tool,
// group, action) by the definition layer.
type Limits struct {
	// Rates are checked in order; each must allow the call. A call one of
	// them refuses has spent its token in those checked before.
	Rates []RateRule
	// Concurrent caps the action's handlers running at once, counting
	// those that outlived their call (0: no cap). A call waits up to Wait
	// for a slot, then is refused.
	Concurrent int
	Wait       time.Duration
	// MaxOutput caps the bytes of text in a result (0: no cap).
	MaxOutput int
}

// limiter is an endpoint's compiled rate limits and concurrency slots; an
// endpoint without either has none, and a call pays one nil check.
type limiter struct {
	rates []RateRule
	slots *slots
}

// setLimits compiles the action's limits into ep, once, at Compile: the
// limiter, and the output cap around the handler.
func (ep *Endpoint) setLimits(l Limits) {
	if len(l.Rates) > 0 || l.Concurrent > 0 {
		ep.limits = &limiter{rates: l.Rates}
		if l.Concurrent > 0 {
			ep.limits.slots = newSlots(l.Concurrent, l.Wait)
		}
	}
	ep.handler = ep.capOutput(ep.handler, l.MaxOutput)
}

// limit takes a concurrency slot, then applies the rate limits. When stop
// is set the call ends there with res, outcome and err; otherwise it
// holds a slot (if the action has slots), which release gives back. The
// slot comes first so that a call refused as busy spends no rate token: a
// rate counts the calls that could run, and a client retrying a busy
// action is not also pushed past its rate by the refusals.
func (ep *Endpoint) limit(ctx context.Context, o *Origin) (stop bool, res *mcp.CallToolResult, outcome Outcome, err error) {
	l := ep.limits
	if l == nil {
		return false, nil, "", nil
	}
	if l.slots != nil {
		switch ok, err := l.slots.take(ctx); {
		case err != nil:
			return true, nil, OutcomeCancelled, err
		case !ok:
			return true, ep.atCapacity(), OutcomeLimited, nil
		}
	}
	if res, outcome := ep.checkRates(ctx, l, o); res != nil {
		return true, res, outcome, nil
	}
	return false, nil, "", nil
}

// checkRates applies the rate limits of a call that holds its slot, if
// its action has slots, and gives the slot back unless the call may go
// on: when a rate refuses it, and when a KeyedBy function or the
// RateStore panics or calls runtime.Goexit, which would otherwise keep the
// slot for good. A panic there is contained here, on whatever goroutine
// the call runs (an MCP task's included): logged with its stack and a
// reference, answered as an internal error.
func (ep *Endpoint) checkRates(ctx context.Context, l *limiter, o *Origin) (res *mcp.CallToolResult, outcome Outcome) {
	passed := false
	defer func() {
		if p := recover(); p != nil {
			ref := FormatID(ep.rt.ids.Add(1))
			ep.rt.Logger.Error("vurb: a rate limit's key function or store panicked",
				"ref", ref, "tool", ep.tool, "action", ep.action, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			res, outcome = ErrorResult(ep.prefix+fmt.Sprintf(ep.rt.Messages.Internal, ref)), OutcomePanic
		}
		if !passed {
			ep.freeSlot()
		}
	}()
	for i := range l.rates {
		if res := ep.checkRate(ctx, &l.rates[i], o); res != nil {
			return res, OutcomeLimited
		}
	}
	passed = true
	return nil, ""
}

// freeSlot gives back the slot a call took, if its action has slots.
func (ep *Endpoint) freeSlot() {
	if l := ep.limits; l != nil && l.slots != nil {
		l.slots.give()
	}
}
