package vurb_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/store"
	"github.com/vurb-go/vurb/vurbtest"
)

// workflowPaths are the ways a client reaches a workflow's actions: the
// go-sdk's session in memory, and over HTTP a handshake-era session (the
// session lane), a sessionless request (the fast lane) and the go-sdk's
// stateless handler, each also with the lanes off (every request through
// the go-sdk's handlers).
var workflowPaths = []struct {
	name      string
	version   string // "" in memory
	stateless bool
	noLane    bool
}{
	{"in memory", "", false, false},
	{"http session", "2025-11-25", false, false},
	{"http sessionless", vurbtest.Sessionless, false, false},
	{"http stateless", "2025-11-25", true, false},
	{"http session, go-sdk", "2025-11-25", false, true},
	{"http sessionless, go-sdk", vurbtest.Sessionless, false, true},
	{"http stateless, go-sdk", "2025-11-25", true, true},
}

func workflowClient(t *testing.T, app *vurb.App, version string, stateless, noLane bool, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	if version == "" {
		return connect(t, app, opts)
	}
	var serve []vurb.ServeOption
	if stateless {
		serve = append(serve, vurb.WithStateless())
	}
	if noLane {
		serve = append(serve, vurb.WithFastLane(false))
	}
	srv := httptest.NewServer(app.HTTPHandler(serve...))
	t.Cleanup(srv.Close)
	return workflowHTTPClient(t, srv.URL, version, opts)
}

// TestWorkflowOnEveryPath: the order held, the way on named, and a race
// of fifty with one winner, on each path a call can take.
func TestWorkflowOnEveryPath(t *testing.T) {
	for _, p := range workflowPaths {
		t.Run(p.name, func(t *testing.T) {
			is := is.New(t)
			c := newCheckoutApp()
			cs := workflowClient(t, c.app, p.version, p.stateless, p.noLane, nil)
			h := startCart(t, cs)
			text, isErr := flowCall(t, cs, "cart_pay", map[string]any{"cart": h})
			is.True(isErr)
			is.True(strings.Contains(text, `is in state "cart"`))                    // the state
			is.True(strings.Contains(text, `cart_checkout (moves it to "payment")`)) // the way on
			is.Equal(c.runs["pay"].Load(), int32(0))
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "cart_pay", Arguments: map[string]any{"cart": h}})
			is.NoErr(err)
			is.Equal(res.Meta["vurb/workflow"], map[string]any{"workflow": "checkout", "state": "cart", "allowed": []any{"cart_add", "cart_checkout", "cart_cancel"}}) // the same for a program
			res, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "cart_add", Arguments: map[string]any{"cart": h, "item": "pen"}})
			is.NoErr(err)
			is.Equal(res.Meta["vurb/workflow"], map[string]any{"workflow": "checkout", "state": "cart"})

			is.Equal(raceCheckout(t, cs, h), int32(1))
			is.Equal(c.runs["checkout"].Load(), int32(1)) // the losers never ran
			text, isErr = flowCall(t, cs, "cart_pay", map[string]any{"cart": h})
			is.True(!isErr)
			is.Equal(text, "paid c_42")
		})
	}
}

// TestWorkflowHandleOfAnotherCallerIsUnknown: a handle is bound to the
// verified subject that started its instance: another subject's call
// with it reads as a handle that does not exist, on the same session.
func TestWorkflowHandleOfAnotherCallerIsUnknown(t *testing.T) {
	for _, version := range []string{"2025-11-25", vurbtest.Sessionless} {
		t.Run(version, func(t *testing.T) {
			is := is.New(t)
			c := newCheckoutApp()
			tokens := map[string]*auth.TokenInfo{
				"alice": {UserID: "alice", Expiration: time.Now().Add(time.Hour)},
				"bob":   {UserID: "bob", Expiration: time.Now().Add(time.Hour)},
			}
			srv, _ := protectedServer(t, c.app, func(string) auth.TokenVerifier { return opaqueTokens(tokens) }, nil)
			alice, _, err := bearerClient(context.Background(), srv.URL, version, "alice")
			is.NoErr(err)
			defer alice.Close()
			bob, _, err := bearerClient(context.Background(), srv.URL, version, "bob")
			is.NoErr(err)
			defer bob.Close()
			h := startCart(t, alice)
			text, isErr := flowCall(t, bob, "cart_checkout", map[string]any{"cart": h})
			is.True(isErr)
			is.True(strings.Contains(text, "no such workflow instance")) // Bob does not learn that it exists
			is.Equal(c.runs["checkout"].Load(), int32(0))
			_, isErr = flowCall(t, alice, "cart_checkout", map[string]any{"cart": h})
			is.True(!isErr) // Alice's own still works
		})
	}
}

// TestWorkflowHandleOfAnotherSessionIsUnknown: an anonymous caller's
// handle is bound to its session: another session's call with it is
// refused as unknown.
func TestWorkflowHandleOfAnotherSessionIsUnknown(t *testing.T) {
	is := is.New(t)
	c := newCheckoutApp()
	one, two := connect(t, c.app, nil), connect(t, c.app, nil)
	h := startCart(t, one)
	text, isErr := flowCall(t, two, "cart_checkout", map[string]any{"cart": h})
	is.True(isErr)
	is.True(strings.Contains(text, "no such workflow instance"))
	is.Equal(c.runs["checkout"].Load(), int32(0))
}

// TestWorkflowExpiredHandleIsRefused: past the machine's TTL a handle
// opens nothing, and the refusal says to start again.
func TestWorkflowExpiredHandleIsRefused(t *testing.T) {
	is := is.New(t)
	c := newCheckoutAppTTL(100 * time.Millisecond)
	cs := connect(t, c.app, nil)
	h := startCart(t, cs)
	time.Sleep(150 * time.Millisecond)
	text, isErr := flowCall(t, cs, "cart_checkout", map[string]any{"cart": h})
	is.True(isErr)
	is.Equal(text, "[cart_checkout] the workflow instance has expired; start a new one with cart_start")
	is.Equal(c.runs["checkout"].Load(), int32(0))
}

// countingWorkflows counts what the gate asks of its store.
type countingWorkflows struct {
	store.Workflows
	asks atomic.Int32
}

func (c *countingWorkflows) Get(ctx context.Context, id string) (*store.Instance, error) {
	c.asks.Add(1)
	return c.Workflows.Get(ctx, id)
}

func (c *countingWorkflows) Claim(ctx context.Context, id string, moves map[string]string, claim string, lease time.Duration) (*store.Instance, error) {
	c.asks.Add(1)
	return c.Workflows.Claim(ctx, id, moves, claim, lease)
}

// TestWorkflowBadHandlesNeverReachTheStore: a forged, truncated, altered
// or expired handle is refused before the store is asked.
func TestWorkflowBadHandlesNeverReachTheStore(t *testing.T) {
	is := is.New(t)
	counting := &countingWorkflows{Workflows: store.NewMemoryWorkflows(0)}
	c := newCheckoutAppTTL(200*time.Millisecond, vurb.WithReplicas(store.Replicas{Workflows: counting}),
		vurb.WithRequestStateKeys([]byte("0123456789abcdef0123456789abcdef")))
	cs := connect(t, c.app, nil)
	h := string(startCart(t, cs))
	_, isErr := flowCall(t, cs, "cart_add", map[string]any{"cart": h, "item": "pen"})
	is.True(!isErr)
	is.Equal(counting.asks.Load(), int32(1)) // a good handle: one read
	for _, bad := range []string{"wf1.forged", h[:len(h)/2], h[:len(h)-4] + "AAAA", "wf9" + h[3:]} {
		_, isErr := flowCall(t, cs, "cart_checkout", map[string]any{"cart": bad})
		is.True(isErr)
	}
	time.Sleep(250 * time.Millisecond)
	text, isErr := flowCall(t, cs, "cart_checkout", map[string]any{"cart": h})
	is.True(isErr)
	is.True(strings.Contains(text, "expired"))
	is.Equal(counting.asks.Load(), int32(1)) // none of them asked the store
}
