package redisstate_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/redisstate"
	"github.com/vurb-go/vurb/workflow"
)

type orderHandle struct {
	Order workflow.Handle `json:"order" validate:"required" description:"The order's handle"`
}

// shopFleet starts n replicas of a shop whose orders are a workflow,
// sharing one redis-server; runs counts each action's handler runs over
// the whole fleet.
func shopFleet(t *testing.T, rs *redisServer, n int) (urls []string, runs map[string]*atomic.Int32) {
	urls, _, runs = shopFleetAuthed(t, rs, n)
	return urls, runs
}

// shopFleetAuthed is shopFleet, each replica also served behind bearer
// auth (attackTokens) at authedURLs.
func shopFleetAuthed(t *testing.T, rs *redisServer, n int) (urls, authedURLs []string, runs map[string]*atomic.Int32) {
	t.Helper()
	runs = map[string]*atomic.Int32{"start": {}, "pay": {}, "ship": {}, "next": {}}
	for range n {
		order := workflow.New("order", "new").On("new", "pay", "paid").On("paid", "ship", "shipped").Final("shipped")
		steps := workflow.New("steps", "one").On("one", "next", "two").On("two", "next", "three").Final("three").BySession()
		app := vurb.New(vurb.WithName("shop"), vurb.WithReplicas(redisstate.New(rs.client(t))), vurb.WithRequestStateKeys(attackKey))
		vurb.Action(app, "order.start", func(ctx context.Context, _ struct{}) (orderHandle, error) {
			runs["start"].Add(1)
			run, _ := workflow.From(ctx)
			return orderHandle{Order: run.Handle()}, run.Set("ref", "o_7")
		}).Starts(order)
		vurb.Action(app, "order.pay", func(ctx context.Context, _ orderHandle) (string, error) {
			runs["pay"].Add(1)
			run, _ := workflow.From(ctx)
			var ref string
			_, err := run.Get("ref", &ref)
			return "paid " + ref, err
		}).When(order, "new").Fires("pay")
		vurb.Action(app, "order.ship", func(context.Context, orderHandle) (string, error) {
			runs["ship"].Add(1)
			return "shipped", nil
		}).When(order, "paid").Fires("ship")
		vurb.Action(app, "steps.next", func(ctx context.Context, _ struct{}) (string, error) {
			runs["next"].Add(1)
			run, _ := workflow.From(ctx)
			return run.State() + " to " + run.Next(), nil
		}).When(steps, "one", "two").Fires("next")
		srv := httptest.NewServer(app.HTTPHandler())
		t.Cleanup(srv.Close)
		urls = append(urls, srv.URL)
		authed := httptest.NewUnstartedServer(nil)
		authed.Start()
		t.Cleanup(authed.Close)
		authed.Config.Handler = app.HTTPHandler(vurb.WithBearerAuth(verifyAttackTokens,
			&oauthex.ProtectedResourceMetadata{Resource: authed.URL}, nil))
		authedURLs = append(authedURLs, authed.URL)
	}
	return urls, authedURLs, runs
}

// TestWorkflowAcrossReplicas: three replicas on one redis-server enforce
// one gate: a handle given by one opens on the others, the order holds
// wherever a call lands, and of fifty calls racing from one state over
// the three, exactly one handler runs.
func TestWorkflowAcrossReplicas(t *testing.T) {
	is := is.New(t)
	urls, runs := shopFleet(t, startRedis(t), 3)
	clients := make([]*mcp.ClientSession, len(urls))
	for i, url := range urls {
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "shopper", Version: "1"}, nil).Connect(context.Background(),
			&mcp.StreamableClientTransport{Endpoint: url}, &mcp.ClientSessionOptions{ProtocolVersion: "2026-07-28"})
		is.NoErr(err)
		t.Cleanup(func() { cs.Close() })
		clients[i] = cs
	}
	call := func(cs *mcp.ClientSession, name string, args any) (string, bool) {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return res.Content[0].(*mcp.TextContent).Text, res.IsError
	}
	res, err := clients[0].CallTool(context.Background(), &mcp.CallToolParams{Name: "order_start", Arguments: map[string]any{}})
	is.NoErr(err)
	raw, _ := json.Marshal(res.StructuredContent)
	var h orderHandle
	is.NoErr(json.Unmarshal(raw, &h))

	text, isErr := call(clients[1], "order_ship", map[string]any{"order": h.Order})
	is.True(isErr) // ship before pay, on another replica
	is.True(strings.Contains(text, `is in state "new"`))
	is.True(strings.Contains(text, `order_pay (moves it to "paid")`))

	var wg sync.WaitGroup
	var won atomic.Int32
	for i := range 50 {
		wg.Go(func() {
			text, isErr := call(clients[i%3], "order_pay", map[string]any{"order": h.Order})
			switch {
			case !isErr:
				won.Add(1)
				if text != "paid o_7" {
					t.Errorf("the winner read %q", text)
				}
			case !strings.Contains(text, "another call is moving") && !strings.Contains(text, `is in state "paid"`):
				t.Errorf("a loser was told %q", text)
			}
		})
	}
	wg.Wait()
	is.Equal(won.Load(), int32(1))
	is.Equal(runs["pay"].Load(), int32(1)) // over the three replicas
	text, isErr = call(clients[2], "order_ship", map[string]any{"order": h.Order})
	is.True(!isErr)
	is.Equal(text, "shipped")
}

// TestWorkflowBySessionAcrossReplicas: a session's instance is the
// session's wherever its requests land, and a move made on one replica
// reaches the client listening on another as
// notifications/tools/list_changed.
func TestWorkflowBySessionAcrossReplicas(t *testing.T) {
	is := is.New(t)
	urls, runs := shopFleet(t, startRedis(t), 3)
	changed := make(chan struct{}, 4)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "stepper", Version: "1"},
		&mcp.ClientOptions{ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} }}).
		Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: urls[0]}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	is.NoErr(err)
	t.Cleanup(func() { cs.Close() })
	time.Sleep(100 * time.Millisecond) // the client opens its stream on the first replica
	for i, want := range []string{"one to two", "two to three"} {
		a := send(t, http.MethodPost, urls[i+1], "", cs.ID(), "2025-11-25", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"steps_next","arguments":{}}}`)
		is.True(a.works())
		is.True(strings.Contains(string(a.result), fmt.Sprintf("%q", want)))
		select {
		case <-changed:
		case <-time.After(5 * time.Second):
			t.Fatalf("move %d made on replica %d did not reach the client on replica 0", i+1, i+1)
		}
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "steps_next", Arguments: map[string]any{}})
	is.NoErr(err)
	is.True(res.IsError)
	is.True(strings.Contains(res.Content[0].(*mcp.TextContent).Text, `in state "three"`)) // finished, on the replica that opened it too
	is.Equal(runs["next"].Load(), int32(2))
}

// TestAttackWorkflowHandlesAcrossReplicas: Alice's handle, given by one
// replica, is unknown to Bob on every replica; a forged or altered one is
// unknown on each; none of them runs a handler.
func TestAttackWorkflowHandlesAcrossReplicas(t *testing.T) {
	is := is.New(t)
	_, urls, runs := shopFleetAuthed(t, startRedis(t), 3)
	call := func(url, token, tool, args string) answer {
		return send(t, http.MethodPost, url, token, "", "2026-07-28",
			`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"`+tool+`","arguments":`+args+`,`+
				`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`)
	}
	a := call(urls[0], "alice-token", "order_start", `{}`)
	is.True(a.works())
	var started struct{ StructuredContent orderHandle }
	is.NoErr(json.Unmarshal(a.result, &started))
	h := string(started.StructuredContent.Order)
	is.True(strings.HasPrefix(h, "wf1."))
	for _, url := range urls {
		for _, attempt := range []struct{ token, handle string }{
			{"bob-token", h},                                  // another caller's
			{"alice-token", h[:len(h)-4] + "AAAA"},            // altered
			{"alice-token", "wf1." + strings.Repeat("A", 60)}, // forged
		} {
			a := call(url, attempt.token, "order_pay", `{"order":"`+attempt.handle+`"}`)
			is.True(a.works())
			is.True(strings.Contains(string(a.result), "no such workflow instance")) // on every replica
		}
	}
	is.Equal(runs["pay"].Load(), int32(0))
	a = call(urls[2], "alice-token", "order_pay", `{"order":"`+h+`"}`)
	is.True(strings.Contains(string(a.result), "paid o_7")) // Alice's, on a third replica
}
