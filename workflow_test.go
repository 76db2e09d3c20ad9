package vurb_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/vurbtest"
	"github.com/vurb-go/vurb/workflow"
)

// checkoutApp is a shop's checkout: a cart is started, filled, checked
// out and paid (or cancelled); runs counts each handler's runs.
type checkoutApp struct {
	app  *vurb.App
	runs map[string]*atomic.Int32
}

type cartOut struct {
	Cart workflow.Handle `json:"cart"`
}

type cartIn struct {
	Cart workflow.Handle `json:"cart" validate:"required" description:"The cart's handle, as cart_start returned it"`
}

type addIn struct {
	Cart workflow.Handle `json:"cart" validate:"required" description:"The cart's handle"`
	Item string          `json:"item" validate:"required" description:"What to add"`
}

func newCheckoutApp(opts ...vurb.Option) *checkoutApp { return newCheckoutAppTTL(0, opts...) }

// newCheckoutAppTTL is newCheckoutApp whose carts live ttl (the default
// when 0).
func newCheckoutAppTTL(ttl time.Duration, opts ...vurb.Option) *checkoutApp {
	m := workflow.New("checkout", "cart").TTL(ttl).
		On("cart", "checkout", "payment").
		On("payment", "pay", "paid").
		On("cart", "cancel", "cancelled").
		On("payment", "cancel", "cancelled").
		Final("paid", "cancelled")
	c := &checkoutApp{app: vurb.New(opts...), runs: map[string]*atomic.Int32{}}
	for _, n := range []string{"start", "add", "checkout", "pay", "cancel"} {
		c.runs[n] = new(atomic.Int32)
	}
	cart := c.app.Tool("cart")
	vurb.Action(cart, "start", func(ctx context.Context, _ struct{}) (cartOut, error) {
		c.runs["start"].Add(1)
		run, _ := workflow.From(ctx)
		if err := run.Set("id", "c_42"); err != nil {
			return cartOut{}, err
		}
		return cartOut{Cart: run.Handle()}, nil
	}).Starts(m)
	vurb.Action(cart, "add", func(ctx context.Context, in addIn) (string, error) {
		c.runs["add"].Add(1)
		run, _ := workflow.From(ctx)
		if err := run.Set("last", in.Item); err == nil {
			return "", fmt.Errorf("a call that fires no event set data")
		}
		var id string
		_, err := run.Get("id", &id)
		return "added " + in.Item + " to " + id, err
	}).When(m, "cart")
	vurb.Action(cart, "checkout", func(ctx context.Context, in cartIn) (string, error) {
		c.runs["checkout"].Add(1)
		run, _ := workflow.From(ctx)
		return "from " + run.State() + " to " + run.Next(), nil
	}).When(m, "cart").Fires("checkout")
	vurb.Action(cart, "pay", func(ctx context.Context, in cartIn) (string, error) {
		c.runs["pay"].Add(1)
		run, _ := workflow.From(ctx)
		var id string
		if _, err := run.Get("id", &id); err != nil {
			return "", err
		}
		return "paid " + id, nil
	}).When(m, "payment").Fires("pay")
	vurb.Mutation(cart, "cancel", func(ctx context.Context, in cartIn) (string, error) {
		c.runs["cancel"].Add(1)
		return "cancelled", nil
	}).When(m, "cart", "payment").Fires("cancel")
	return c
}

// call calls the tool and returns its text and whether it was an error.
func flowCall(t *testing.T, cs *mcp.ClientSession, name string, args any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), res.IsError
}

func startCart(t *testing.T, cs *mcp.ClientSession) workflow.Handle {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "cart_start", Arguments: map[string]any{}})
	if err != nil || res.IsError {
		t.Fatalf("cart_start: %v %+v", err, res)
	}
	var out cartOut
	raw, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(raw, &out); err != nil || out.Cart == "" {
		t.Fatalf("cart_start gave no handle: %s", raw)
	}
	return out.Cart
}

// TestWorkflowGateHoldsTheOrder: the happy path, and every out-of-order
// call refused before its handler runs with the state and the way on.
func TestWorkflowGateHoldsTheOrder(t *testing.T) {
	is := is.New(t)
	c := newCheckoutApp()
	cs := connect(t, c.app, nil)
	h := startCart(t, cs)

	text, isErr := flowCall(t, cs, "cart_pay", map[string]any{"cart": h})
	is.True(isErr)
	is.True(strings.Contains(text, `[cart_pay] not allowed now: this checkout workflow instance is in state "cart", and this action needs state "payment"`)) // text
	is.True(strings.Contains(text, `cart_checkout (moves it to "payment")`))                                                                                 // the way on
	is.True(strings.Contains(text, `cart_add`))
	is.Equal(c.runs["pay"].Load(), int32(0))

	text, isErr = flowCall(t, cs, "cart_add", map[string]any{"cart": h, "item": "book"})
	is.True(!isErr)
	is.Equal(text, "added book to c_42")
	text, isErr = flowCall(t, cs, "cart_checkout", map[string]any{"cart": h})
	is.True(!isErr)
	is.Equal(text, "from cart to payment")
	text, isErr = flowCall(t, cs, "cart_add", map[string]any{"cart": h, "item": "pen"})
	is.True(isErr) // the cart is checked out
	is.True(strings.Contains(text, `in state "payment"`))
	text, isErr = flowCall(t, cs, "cart_pay", map[string]any{"cart": h})
	is.True(!isErr)
	is.Equal(text, "paid c_42")
	text, isErr = flowCall(t, cs, "cart_cancel", map[string]any{"cart": h})
	is.True(isErr)
	is.True(strings.Contains(text, `the instance is finished: start a new one with cart_start`))
	is.Equal(c.runs["cancel"].Load(), int32(0))
}

// TestWorkflowHandlesRefused: a forged, tampered or truncated handle, and
// one of another machine, are refused as unknown without the handler.
func TestWorkflowHandlesRefused(t *testing.T) {
	is := is.New(t)
	c := newCheckoutApp()
	cs := connect(t, c.app, nil)
	h := string(startCart(t, cs))
	for _, forged := range []string{"", "wf1.", "wf1.AAAA", h[:len(h)-2], h[:len(h)-1] + "A", strings.Replace(h, "wf1.", "wf2.", 1), h + h} {
		if forged == h {
			continue
		}
		text, isErr := flowCall(t, cs, "cart_checkout", map[string]any{"cart": forged})
		is.True(isErr)
		is.True(strings.Contains(text, "no such workflow instance") || strings.Contains(text, "invalid")) // forged
	}
	is.Equal(c.runs["checkout"].Load(), int32(0))
}

// TestWorkflowRaceHasOneWinner: fifty calls that fire one event from one
// state at once: exactly one handler runs, the others are refused.
func TestWorkflowRaceHasOneWinner(t *testing.T) {
	is := is.New(t)
	c := newCheckoutApp()
	cs := connect(t, c.app, nil)
	is.Equal(raceCheckout(t, cs, startCart(t, cs)), int32(1))
	is.Equal(c.runs["checkout"].Load(), int32(1))
}

// raceCheckout checks cart h out from fifty calls at once and returns how
// many succeeded; every other must be refused by the gate, as racing
// (another call holds the claim) or as out of state (it already moved).
func raceCheckout(t *testing.T, cs *mcp.ClientSession, h workflow.Handle) int32 {
	t.Helper()
	var wg sync.WaitGroup
	var won atomic.Int32
	for range 50 {
		wg.Go(func() {
			text, isErr := flowCall(t, cs, "cart_checkout", map[string]any{"cart": h})
			switch {
			case !isErr:
				won.Add(1)
			case !strings.Contains(text, "another call is moving") && !strings.Contains(text, `in state "payment"`):
				t.Errorf("a losing call was told %q", text)
			}
		})
	}
	wg.Wait()
	return won.Load()
}

// TestWorkflowFailedCallsLeaveTheInstance: a handler that fails (an
// error, a panic, runtime.Goexit) releases its claim: the instance stays
// where it was and the next call moves it.
func TestWorkflowFailedCallsLeaveTheInstance(t *testing.T) {
	m := workflow.New("job", "queued").On("queued", "run", "done").Final("done")
	for _, fail := range []struct {
		name string
		do   func() (string, error)
	}{
		{"error", func() (string, error) { return "", fmt.Errorf("the runner is down") }},
		{"panic", func() (string, error) { panic("boom") }},
		{"goexit", func() (string, error) { runtime.Goexit(); return "", nil }},
	} {
		t.Run(fail.name, func(t *testing.T) {
			is := is.New(t)
			app := vurb.New(vurb.WithLogger(slog.New(slog.DiscardHandler)))
			var failing atomic.Bool
			failing.Store(true)
			vurb.Action(app, "jobs.queue", func(ctx context.Context, _ struct{}) (cartOut, error) {
				run, _ := workflow.From(ctx)
				return cartOut{Cart: run.Handle()}, nil
			}).Starts(m)
			vurb.Action(app, "jobs.run", func(context.Context, cartIn) (string, error) {
				if failing.Load() {
					return fail.do()
				}
				return "ran", nil
			}).When(m, "queued").Fires("run")
			cs := connect(t, app, nil)
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "jobs_queue", Arguments: map[string]any{}})
			is.NoErr(err)
			h := res.StructuredContent.(map[string]any)["cart"]
			_, isErr := flowCall(t, cs, "jobs_run", map[string]any{"cart": h})
			is.True(isErr)
			failing.Store(false)
			text, isErr := flowCall(t, cs, "jobs_run", map[string]any{"cart": h})
			is.True(!isErr) // not "another call is moving it", not "done"
			is.Equal(text, "ran")
		})
	}
}

// TestWorkflowEveryOutOfOrderCallIsRefused: in each state of the
// checkout, every action the state does not allow is refused before its
// handler runs, naming that state and offering exactly the actions the
// state allows, over the go-sdk in memory and sessionless HTTP.
func TestWorkflowEveryOutOfOrderCallIsRefused(t *testing.T) {
	allowed := map[string][]string{ // what each state allows, in declaration order
		"cart":      {"cart_add", "cart_checkout", "cart_cancel"},
		"payment":   {"cart_pay", "cart_cancel"},
		"paid":      nil,
		"cancelled": nil,
	}
	// reach drives a new cart to state.
	reach := map[string][]string{"cart": nil, "payment": {"cart_checkout"}, "paid": {"cart_checkout", "cart_pay"}, "cancelled": {"cart_cancel"}}
	actions := []string{"cart_add", "cart_checkout", "cart_pay", "cart_cancel"}
	for _, p := range []struct {
		name string
		opt  []vurbtest.Option
	}{{"in memory", nil}, {"http sessionless", []vurbtest.Option{vurbtest.OverHTTP(), vurbtest.Protocol(vurbtest.Sessionless)}}} {
		t.Run(p.name, func(t *testing.T) {
			c := newCheckoutApp()
			for state, path := range reach {
				for _, action := range actions {
					if slices.Contains(allowed[state], action) {
						continue
					}
					t.Run(state+"/"+action, func(t *testing.T) {
						is := is.New(t)
						f := vurbtest.New(t, c.app, p.opt...).StartFlow("cart_start", nil)
						for _, step := range path {
							f.Call(step, nil)
						}
						runs := c.runs[strings.TrimPrefix(action, "cart_")].Load()
						var args map[string]any
						if action == "cart_add" {
							args = map[string]any{"item": "pen"}
						}
						text, offered := f.Refused(action, args)
						is.Equal(f.State(), state)
						is.True(strings.Contains(text, fmt.Sprintf("is in state %q", state)))
						is.Equal(offered, allowed[state])
						if allowed[state] == nil {
							is.True(strings.Contains(text, "the instance is finished: start a new one with cart_start"))
						}
						is.Equal(c.runs[strings.TrimPrefix(action, "cart_")].Load(), runs) // its handler never ran
					})
				}
			}
		})
	}
}
