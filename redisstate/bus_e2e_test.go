package redisstate_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/redis/go-redis/v9"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/redisstate"
)

// What one replica learns that another must act on travels on the bus:
// each test puts two replicas sharing one Redis (vurb.WithReplicas) behind
// a round-robin balancer with no affinity, and a go-sdk client of the
// handshake era whose requests alternate between them.

const watched = "test://watched"

// busReplica is one replica: an app of its own, with its own Redis client.
func busReplica(t *testing.T, client *redis.Client) (*vurb.App, http.Handler) {
	t.Helper()
	app := vurb.New(vurb.WithLogger(slog.New(slog.DiscardHandler)),
		vurb.WithReplicas(redisstate.New(client)),
		vurb.WithRequestStateKeys([]byte("0123456789abcdef0123456789abcdef")))
	vurb.Action(app, "user.ask", func(ctx context.Context, _ struct{}) (string, error) {
		res, err := vurb.AskElicitation(ctx, "name", &mcp.ElicitParams{Message: "Your name?",
			RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}}})
		if err != nil {
			return "", err
		}
		name, _ := res.Content["name"].(string)
		return "hello " + name, nil
	})
	vurb.Query(app, "user.log", func(ctx context.Context, _ struct{}) (string, error) {
		return "logged", vurb.Log(ctx, "info", "a message at info")
	})
	vurb.Resource(app, watched, "watched", func(context.Context) (vurb.Contents, error) {
		return vurb.Contents{Text: "now"}, nil
	})
	return app, app.HTTPHandler()
}

// busCluster is two replicas behind a round-robin balancer.
func busCluster(t *testing.T) (apps [2]*vurb.App, lb *roundRobin, url string) {
	apps, lb, url, _ = busClusterOn(t, startRedis(t))
	return apps, lb, url
}

func busClusterOn(t *testing.T, rs *redisServer) (apps [2]*vurb.App, lb *roundRobin, url string, _ *redisServer) {
	var handlers [2]http.Handler
	for i := range apps {
		apps[i], handlers[i] = busReplica(t, rs.client(t))
	}
	lb = &roundRobin{replicas: handlers[:], down: map[int]bool{}, served: make([]int, 2)}
	srv := httptest.NewServer(lb)
	t.Cleanup(srv.Close)
	return apps, lb, srv.URL, rs
}

func connect(t *testing.T, url string, opts *mcp.ClientOptions, standalone bool) *mcp.ClientSession {
	t.Helper()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "roamer", Version: "1"}, opts).Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: url, DisableStandaloneSSE: !standalone},
		&mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func callText(t *testing.T, cs *mcp.ClientSession, name string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: map[string]any{}})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	if res.IsError {
		t.Fatalf("%s: %s", name, text)
	}
	return text
}

// The answer to an elicitation the client POSTs to the replica that did
// not ask: it reaches the one that did, and the call completes.
func TestAnswerReachesTheReplicaThatAsked(t *testing.T) {
	is := is.New(t)
	_, lb, url := busCluster(t)
	cs := connect(t, url, &mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada"}}, nil
		},
	}, false)
	for range 4 { // the call and its answer on one replica, then on two
		is.Equal(callText(t, cs, "user_ask"), "hello Ada")
	}
	lb.mu.Lock()
	defer lb.mu.Unlock()
	is.True(lb.served[0] > 2 && lb.served[1] > 2)
}

// A log level set through one replica holds on the other: every call's
// message arrives, wherever the call runs.
func TestLogLevelHoldsOnEveryReplica(t *testing.T) {
	is := is.New(t)
	_, _, url := busCluster(t)
	var mu sync.Mutex
	var got []string
	cs := connect(t, url, &mcp.ClientOptions{
		LoggingMessageHandler: func(_ context.Context, r *mcp.LoggingMessageRequest) {
			mu.Lock()
			got = append(got, r.Params.Data.(string))
			mu.Unlock()
		},
	}, false)
	callText(t, cs, "user_log") // no level set yet: no message
	is.NoErr(cs.SetLoggingLevel(context.Background(), &mcp.SetLoggingLevelParams{Level: "info"}))
	for range 4 {
		is.Equal(callText(t, cs, "user_log"), "logged")
	}
	// The go-sdk client hands a notification to its handler on a goroutine
	// of its own, which may run after the call it came with returned.
	count := func() int { mu.Lock(); defer mu.Unlock(); return len(got) }
	for deadline := time.Now().Add(2 * time.Second); count() < 4 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	is.Equal(count(), 4) // one per call after setLevel, on both replicas
}

// A session its client ended on one replica is unknown to the other at
// once, not a second later.
func TestEndedSessionIsGoneEverywhere(t *testing.T) {
	is := is.New(t)
	_, _, url := busCluster(t)
	cs := connect(t, url, nil, false)
	for range 2 { // both replicas now hold the session
		callText(t, cs, "user_log")
	}
	id := cs.ID()
	is.NoErr(cs.Close()) // DELETE, on one of them
	for range 2 {
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(`{"jsonrpc":"2.0","id":9,"method":"tools/list"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Session-Id", id)
		req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
		res, err := http.DefaultClient.Do(req)
		is.NoErr(err)
		res.Body.Close()
		is.Equal(res.StatusCode, http.StatusNotFound)
	}
}

// An update raised on either replica reaches a subscriber whose standing
// stream another replica may hold.
func TestResourceUpdateReachesEverySubscriber(t *testing.T) {
	is := is.New(t)
	apps, _, url := busCluster(t)
	updates := make(chan string, 8)
	cs := connect(t, url, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, r *mcp.ResourceUpdatedNotificationRequest) {
			updates <- r.Params.URI
		},
	}, true)
	is.NoErr(cs.Subscribe(context.Background(), &mcp.SubscribeParams{URI: watched}))
	for range 2 { // let both replicas connect the session: the GET stream is on one of them
		callText(t, cs, "user_log")
	}
	for i := range apps {
		is.NoErr(apps[i].NotifyResourceUpdated(context.Background(), watched))
		select {
		case uri := <-updates:
			is.Equal(uri, watched)
		case <-time.After(5 * time.Second):
			t.Fatalf("the update raised on replica %d never arrived", i)
		}
	}
}

// A task cancelled through the replica that does not run it stops its
// handler on the one that does: the bus carries the cancellation.
func TestTaskCancelStopsTheHandlerOnAnotherReplica(t *testing.T) {
	is := is.New(t)
	rs := startRedis(t)
	stopped := make(chan error, 1)
	handler := func() http.Handler {
		app := vurb.New(vurb.WithLogger(slog.New(slog.DiscardHandler)),
			vurb.WithReplicas(redisstate.New(rs.client(t))),
			vurb.WithRequestStateKeys(bytes.Repeat([]byte{7}, 32)))
		vurb.Query(app, "jobs.slow", func(ctx context.Context, _ struct{}) (string, error) {
			if err := vurb.SetTaskStatus(ctx, "half way"); err != nil {
				return "", err
			}
			select {
			case <-ctx.Done():
				stopped <- ctx.Err()
				return "", ctx.Err()
			case <-time.After(30 * time.Second):
				return "never cancelled", nil
			}
		}).Task()
		return app.HTTPHandler()
	}
	first, second := handler(), handler()
	id := start(t, first, "jobs_slow")
	poll(t, second, id, func(task map[string]any) bool { return task["statusMessage"] == "half way" })
	rpc(t, second, "tasks/cancel", id, `"taskId":"`+id+`"`)
	select {
	case err := <-stopped:
		is.True(errors.Is(err, context.Canceled))
	case <-time.After(5 * time.Second):
		t.Fatal("the handler on the first replica was never cancelled")
	}
}

// With Redis down, the replicas go on serving the sessions they hold, a
// change answers within the bus's bound, and no goroutine piles up; once
// Redis is back the bus carries changes again, without a restart.
func TestBusOutageThenRecovery(t *testing.T) {
	is := is.New(t)
	rs := startRedis(t)
	_, _, url, _ := busClusterOn(t, rs)
	var mu sync.Mutex
	logged := 0
	cs := connect(t, url, &mcp.ClientOptions{
		LoggingMessageHandler: func(context.Context, *mcp.LoggingMessageRequest) { mu.Lock(); logged++; mu.Unlock() },
	}, false)
	count := func() int { mu.Lock(); defer mu.Unlock(); return logged }
	ctx := context.Background()
	is.NoErr(cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "info"}))
	for range 2 { // both replicas hold the session, at level info
		callText(t, cs, "user_log")
	}

	rs.stop()
	before := runtime.NumGoroutine()
	for range 20 { // what leaked per change or call would show twenty times over
		start := time.Now()
		is.NoErr(cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "info"}))
		if d := time.Since(start); d > time.Second {
			t.Fatalf("setLevel with Redis down took %v", d)
		}
		for range 2 {
			is.Equal(callText(t, cs, "user_log"), "logged") // served from what each replica holds
		}
	}
	time.Sleep(300 * time.Millisecond) // go-redis's dials and the store's renewals end within their bounds
	if after := runtime.NumGoroutine(); after > before+10 {
		t.Fatalf("%d goroutines after 20 setLevels and 40 calls with Redis down, %d before", after, before)
	}

	rs.restart(t)
	// Level error on one replica: once the bus is back, the other drops
	// info messages too, and two calls (one on each) log nothing.
	deadline := time.Now().Add(10 * time.Second)
	for {
		is.NoErr(cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "error"}))
		time.Sleep(50 * time.Millisecond) // late notifications of earlier calls
		n := count()
		for range 2 {
			callText(t, cs, "user_log")
		}
		time.Sleep(50 * time.Millisecond)
		if count() == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("Redis back for 10 s, a log level set on one replica still does not reach the other")
		}
		is.NoErr(cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "info"})) // and try again
		time.Sleep(200 * time.Millisecond)
	}
}

// A client of revision 2026-07-28 subscribes over a subscriptions/listen
// stream, which one replica holds: an update raised on either reaches it.
func TestListenStreamGetsUpdatesFromEveryReplica(t *testing.T) {
	is := is.New(t)
	apps, _, url := busCluster(t)
	updates := make(chan string, 64)
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "listener", Version: "1"}, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, r *mcp.ResourceUpdatedNotificationRequest) { updates <- r.Params.URI },
	}).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, nil)
	is.NoErr(err)
	defer cs.Close()
	is.NoErr(cs.Subscribe(ctx, &mcp.SubscribeParams{URI: watched}))
	// The stream may open after Subscribe returns: wait for a first update
	// raised on both replicas.
	for settled := false; !settled; {
		for _, app := range apps {
			is.NoErr(app.NotifyResourceUpdated(ctx, watched))
		}
		select {
		case <-updates:
			settled = true
		case <-time.After(100 * time.Millisecond):
		}
	}
	time.Sleep(100 * time.Millisecond)
	for len(updates) > 0 {
		<-updates
	}
	for i, app := range apps {
		for range 3 {
			is.NoErr(app.NotifyResourceUpdated(ctx, watched))
			select {
			case uri := <-updates:
				is.Equal(uri, watched)
			case <-time.After(5 * time.Second):
				t.Fatalf("an update raised on replica %d never reached the listen stream", i)
			}
		}
	}
}
