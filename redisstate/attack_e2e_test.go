package redisstate_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"github.com/redis/go-redis/v9"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/redisstate"
)

// Attacks on the replicas of one app: three of them, each a real HTTP
// server on loopback with its own Redis client, sharing one redis-server
// (vurb.WithReplicas), two users with bearer tokens. Each test is what a
// caller, or someone who can write to the shared Redis, tries against
// another user.

// attackKey is the replicas' request-state key.
var attackKey = []byte("0123456789abcdef0123456789abcdef")

// attackTokens are the two users' bearer tokens.
var attackTokens = map[string]string{"alice-token": "alice", "bob-token": "bob"}

// logLines collects what a replica logs, for the tests that read it.
type logLines struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logLines) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logLines) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// fleet is the replicas of one app.
type fleet struct {
	urls  []string
	wipes *atomic.Int32 // runs of docs.wipe, on any replica
	runs  *atomic.Int32 // runs of jobs.run, on any replica
	logs  *logLines
	// release ends every run of jobs.wait.
	release chan struct{}
}

// attackFleet starts n replicas of the app named name on rs, each served
// with serve's options besides bearer auth.
func attackFleet(t *testing.T, rs *redisServer, name string, n int, opts []vurb.Option, serve ...vurb.ServeOption) *fleet {
	t.Helper()
	stores := make([]*redisstate.Store, n)
	for i := range stores {
		stores[i] = redisstate.New(rs.client(t))
	}
	return fleetOver(t, name, stores, opts, serve...)
}

// fleetOver starts a replica of the app named name on each of stores.
func fleetOver(t *testing.T, name string, stores []*redisstate.Store, opts []vurb.Option, serve ...vurb.ServeOption) *fleet {
	t.Helper()
	f := &fleet{wipes: new(atomic.Int32), runs: new(atomic.Int32), logs: &logLines{}, release: make(chan struct{})}
	for _, store := range stores {
		app := vurb.New(append([]vurb.Option{vurb.WithName(name),
			vurb.WithLogger(slog.New(slog.NewTextHandler(f.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))),
			vurb.WithReplicas(store),
			vurb.WithRequestStateKeys(attackKey)}, opts...)...)
		vurb.Mutation(app, "docs.wipe", func(context.Context, struct{}) (string, error) {
			f.wipes.Add(1)
			return "wiped", nil
		})
		vurb.Query(app, "docs.read", func(context.Context, struct{}) (string, error) { return "the docs", nil })
		vurb.Mutation(app, "jobs.run", func(context.Context, struct{}) (string, error) {
			f.runs.Add(1)
			time.Sleep(30 * time.Millisecond)
			return "ran", nil
		}).Task()
		vurb.Mutation(app, "jobs.wait", func(ctx context.Context, _ struct{}) (string, error) {
			select {
			case <-f.release:
				return "released", nil
			case <-ctx.Done():
				return "", ctx.Err()
			}
		}).Task()
		vurb.Mutation(app, "rows.delete", func(ctx context.Context, in struct {
			ID string `json:"id" validate:"required"`
		}) (string, error) {
			if _, err := vurb.Ask[confirm](ctx, "confirm", "Sure?"); err != nil {
				return "", err
			}
			f.wipes.Add(1)
			return "deleted " + in.ID, nil
		})
		srv := httptest.NewUnstartedServer(nil)
		srv.Start()
		t.Cleanup(srv.Close)
		srv.Config.Handler = app.HTTPHandler(append([]vurb.ServeOption{vurb.WithBearerAuth(verifyAttackTokens,
			&oauthex.ProtectedResourceMetadata{Resource: srv.URL}, nil)}, serve...)...)
		f.urls = append(f.urls, srv.URL)
	}
	return f
}

// verifyAttackTokens knows attackTokens.
func verifyAttackTokens(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
	if user, ok := attackTokens[token]; ok {
		return &auth.TokenInfo{UserID: user, Expiration: time.Now().Add(time.Hour)}, nil
	}
	return nil, auth.ErrInvalidToken
}

// answer is one HTTP answer to a JSON-RPC request.
type answer struct {
	status  int
	header  http.Header
	body    string
	result  json.RawMessage
	rpcErr  *struct{ Message string }
	session string
}

// send posts a JSON-RPC message (or sends method, for DELETE) to url as
// the holder of token, in session (if any) of revision version.
func send(t *testing.T, method, url, token, session, version, body string) answer {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", version)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
	}
	var sent struct {
		Method string
		Params struct {
			Name   string
			TaskID string `json:"taskId"`
		}
	}
	if json.Unmarshal([]byte(body), &sent) == nil && version >= "2026-07-28" { // the routing headers SEP-2243 asks for
		req.Header.Set("Mcp-Method", sent.Method)
		if name := sent.Params.Name + sent.Params.TaskID; name != "" {
			req.Header.Set("Mcp-Name", name)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	a := answer{status: resp.StatusCode, header: resp.Header, body: string(data), session: resp.Header.Get("Mcp-Session-Id")}
	msg := bytes.TrimSpace(data)
	if i := bytes.Index(msg, []byte("data: ")); i >= 0 {
		msg = bytes.TrimSpace(msg[i+len("data: "):])
	}
	var env struct {
		Result json.RawMessage
		Error  *struct{ Message string }
	}
	if json.Unmarshal(msg, &env) == nil {
		a.result, a.rpcErr = env.Result, env.Error
	}
	return a
}

// open initializes a handshake-era session at url as the holder of token.
func open(t *testing.T, url, token string) string {
	t.Helper()
	a := send(t, http.MethodPost, url, token, "", "2025-11-25", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"attacker","version":"1"}}}`)
	if a.status != http.StatusOK || a.session == "" {
		t.Fatalf("initialize: %d %s", a.status, a.body)
	}
	if b := send(t, http.MethodPost, url, token, a.session, "2025-11-25", `{"jsonrpc":"2.0","method":"notifications/initialized"}`); b.status != http.StatusAccepted {
		t.Fatalf("initialized: %d %s", b.status, b.body)
	}
	return a.session
}

// callIn calls tool in session at url as the holder of token.
func callIn(t *testing.T, url, token, session, tool string) answer {
	t.Helper()
	return send(t, http.MethodPost, url, token, session, "2025-11-25", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"`+tool+`","arguments":{}}}`)
}

// works reports whether a answers a call with a result.
func (a answer) works() bool { return a.status == http.StatusOK && a.result != nil && a.rpcErr == nil }

// Bob sends DELETE with Alice's session id, to the replica that opened it
// and to one that did not: he is refused, and Alice's session goes on, on
// every replica, on the session lane and on the go-sdk's path alike.
func TestAttackAnotherUsersDeleteLeavesTheSessionOpen(t *testing.T) {
	rs := startRedis(t)
	for _, mode := range []struct {
		name  string
		serve []vurb.ServeOption
	}{{"session lane", nil}, {"go-sdk", []vurb.ServeOption{vurb.WithFastLane(false)}}} {
		t.Run(mode.name, func(t *testing.T) {
			is := is.New(t)
			f := attackFleet(t, rs, "docs-"+strings.ReplaceAll(mode.name, " ", "-"), 3, nil, mode.serve...)
			alice := open(t, f.urls[0], "alice-token")
			is.True(callIn(t, f.urls[1], "alice-token", alice, "docs_read").works()) // adopted by the second
			for _, url := range f.urls[:2] {
				a := send(t, http.MethodDelete, url, "bob-token", alice, "2025-11-25", "")
				is.Equal(a.status, http.StatusForbidden)
			}
			time.Sleep(100 * time.Millisecond) // what an end would have fanned out
			for i, url := range f.urls {
				a := callIn(t, url, "alice-token", alice, "docs_read")
				if !a.works() {
					t.Fatalf("replica %d: Alice's session after Bob's DELETE: %d %s", i, a.status, a.body)
				}
			}
			is.Equal(send(t, http.MethodDelete, f.urls[2], "alice-token", alice, "2025-11-25", "").status/100, 2) // its owner may
			time.Sleep(100 * time.Millisecond)
			for _, url := range f.urls {
				is.Equal(callIn(t, url, "alice-token", alice, "docs_read").status, http.StatusNotFound)
			}
		})
	}
}

// One caller opens six sessions, on one replica and then spread over
// three, with a share of two: only two of them answer, wherever the calls
// go, since a session closed to make room ends everywhere and the share
// is counted in the shared store.
func TestAttackSessionQuotaHoldsForTheDeployment(t *testing.T) {
	rs := startRedis(t)
	for _, spread := range []bool{false, true} {
		name := "one replica"
		if spread {
			name = "three replicas"
		}
		t.Run(name, func(t *testing.T) {
			is := is.New(t)
			f := attackFleet(t, rs, "quota-"+strings.ReplaceAll(name, " ", "-"), 3, nil, vurb.WithMaxSessionsPerCaller(2))
			var ids []string
			for i := range 6 {
				url := f.urls[0]
				if spread {
					url = f.urls[i%3]
				}
				ids = append(ids, open(t, url, "alice-token"))
				time.Sleep(5 * time.Millisecond) // an order the store's clock can tell
			}
			time.Sleep(100 * time.Millisecond)
			live := 0
			for i, id := range ids {
				for j, url := range f.urls {
					a := callIn(t, url, "alice-token", id, "docs_read")
					if a.works() {
						live++
						is.True(i >= 4) // the newest two are kept
						break
					}
					if a.status != http.StatusNotFound {
						t.Fatalf("session %d on replica %d: %d %s", i, j, a.status, a.body)
					}
				}
			}
			is.Equal(live, 2)
			bob := open(t, f.urls[1], "bob-token") // another caller's share is his own
			is.True(callIn(t, f.urls[2], "bob-token", bob, "docs_read").works())
		})
	}
}

// busChannel is the channel the replicas of the app named app publish on.
func busChannel(app string) string { return redisstate.DefaultPrefix + app + ":bus" }

// Someone who can PUBLISH to the shared Redis sends the replicas a
// message that would run docs.wipe in Alice's session, plays a message a
// replica sealed again, and sends one sealed by an app with another key:
// no replica acts on any, and each is counted and logged.
func TestAttackBusMessagesNoReplicaSealedDoNothing(t *testing.T) {
	is := is.New(t)
	rs := startRedis(t)
	f := attackFleet(t, rs, "bus", 3, nil)
	alice := open(t, f.urls[0], "alice-token")
	rdb := rs.client(t)
	ctx := context.Background()

	sub := rdb.Subscribe(ctx, busChannel("bus"))
	defer sub.Close()
	_, err := sub.Receive(ctx)
	is.NoErr(err)
	// Alice sets her log level through another replica: a sealed message
	// every replica acts on, which the attacker captures.
	set := send(t, http.MethodPost, f.urls[1], "alice-token", alice, "2025-11-25", `{"jsonrpc":"2.0","id":3,"method":"logging/setLevel","params":{"level":"debug"}}`)
	is.Equal(set.status, http.StatusOK)
	var captured string
	select {
	case m := <-sub.Channel():
		captured = m.Payload
	case <-time.After(5 * time.Second):
		t.Fatal("no bus message captured")
	}

	forged, _ := json.Marshal(map[string]any{"from": "x", "kind": "session", "session": alice,
		"body": json.RawMessage(`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"docs_wipe","arguments":{}}}`)})
	other := attackFleet(t, rs, "bus", 1, []vurb.Option{vurb.WithRequestStateKeys([]byte("ffffffffffffffffffffffffffffffff"))})
	_ = other // its bus subscription: its own messages fail the fleet's key, and the fleet's fail its
	for name, msg := range map[string]string{"forged": string(forged), "played again": captured, "garbage": "\x00{not json"} {
		is.NoErr(rdb.Publish(ctx, busChannel("bus"), msg).Err())
		_ = name
	}
	// The other app's replica publishes a sealed message of its own key
	// when a session of it is ended.
	stray := open(t, other.urls[0], "bob-token")
	is.Equal(send(t, http.MethodDelete, other.urls[0], "bob-token", stray, "2025-11-25", "").status/100, 2)

	time.Sleep(300 * time.Millisecond)
	is.Equal(f.wipes.Load(), int32(0))
	is.True(callIn(t, f.urls[2], "alice-token", alice, "docs_read").works())
	logs := f.logs.String()
	is.True(strings.Count(logs, "dropped a bus message") >= 3*3) // three replicas, three messages at least
	for _, why := range []string{"not sealed by a replica of this app", "delivered before"} {
		if !strings.Contains(logs, why) {
			t.Errorf("no drop logged as %q:\n%s", why, logs)
		}
	}
}

// Two apps of different names on one Redis: a session opened on billing
// is unknown to wiki, and every key each writes begins with its own
// prefix.
func TestAttackTwoAppsOnOneRedisShareNothing(t *testing.T) {
	is := is.New(t)
	rs := startRedis(t)
	billing := attackFleet(t, rs, "billing", 2, nil)
	wiki := attackFleet(t, rs, "wiki", 2, nil)
	s := open(t, billing.urls[0], "alice-token")
	is.True(callIn(t, billing.urls[1], "alice-token", s, "docs_read").works())
	is.Equal(callIn(t, wiki.urls[0], "alice-token", s, "docs_read").status, http.StatusNotFound)
	is.Equal(callIn(t, wiki.urls[1], "alice-token", s, "docs_read").status, http.StatusNotFound)
	keys, err := rs.client(t).Keys(context.Background(), "*").Result()
	is.NoErr(err)
	is.True(len(keys) > 0)
	for _, k := range keys {
		if !strings.HasPrefix(k, "vurb:billing:") && !strings.HasPrefix(k, "vurb:wiki:") {
			t.Errorf("key %q belongs to no app", k)
		}
	}
}

// With Redis down, a replica that does not hold a session answers 503
// with Retry-After, never 404 ("start over"), and never the store's own
// text; the log has it.
func TestAttackStoreDownIsUnavailableNotNotFound(t *testing.T) {
	is := is.New(t)
	rs := startRedis(t)
	f := attackFleet(t, rs, "outage", 2, nil)
	s := open(t, f.urls[0], "alice-token")
	rs.stop()
	a := callIn(t, f.urls[1], "alice-token", s, "docs_read")
	is.Equal(a.status, http.StatusServiceUnavailable)
	is.True(a.header.Get("Retry-After") != "")
	for _, leak := range []string{"redis", "127.0.0.1", "deadline", "dial", "250ms"} {
		if strings.Contains(strings.ToLower(a.body), leak) {
			t.Errorf("the answer tells the client %q: %s", leak, a.body)
		}
	}
	is.True(strings.Contains(f.logs.String(), "the shared store failed"))
	is.True(callIn(t, f.urls[0], "alice-token", s, "docs_read").works()) // the replica that holds it serves on
}

// A sealed input-request state answered on one replica is refused on
// every other: it is spent once for the deployment.
func TestAttackInputStateIsSpentOnceForTheDeployment(t *testing.T) {
	is := is.New(t)
	rs := startRedis(t)
	f := attackFleet(t, rs, "rounds", 3, nil)
	const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}}`
	call := func(url, state string) answer {
		params := `{"name":"rows_delete","arguments":{"id":"r1"},` + meta
		if state != "" {
			params += `,"requestState":"` + state + `","inputResponses":{"confirm":{"action":"accept","content":{"yes":true}}}`
		}
		return send(t, http.MethodPost, url, "alice-token", "", "2026-07-28", `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":`+params+`}}`)
	}
	first := call(f.urls[0], "")
	var round struct {
		RequestState string `json:"requestState"`
	}
	is.NoErr(json.Unmarshal(first.result, &round))
	is.True(round.RequestState != "")
	is.True(call(f.urls[1], round.RequestState).works())
	for _, url := range f.urls {
		a := call(url, round.RequestState)
		is.True(a.rpcErr != nil)
		is.True(strings.Contains(a.rpcErr.Message, "already used"))
	}
	is.Equal(f.wipes.Load(), int32(1))

	// With the store down the state is refused as unchecked, and the
	// store's text stays in the log.
	second := call(f.urls[0], "")
	is.NoErr(json.Unmarshal(second.result, &round))
	rs.stop()
	a := call(f.urls[2], round.RequestState)
	is.True(a.rpcErr != nil)
	is.True(strings.Contains(a.rpcErr.Message, "retry shortly"))
	is.True(!strings.Contains(strings.ToLower(a.rpcErr.Message), "redis"))
	is.Equal(f.wipes.Load(), int32(1))
}

// Redis restarts without persistence: every record is gone. A replica
// asked for a session it cannot find asks the others on the bus, and the
// one that holds it saves it again, so the session goes on with no 404
// (and within a probe's interval, every record is saved again anyway).
func TestSessionsOutliveARedisRestart(t *testing.T) {
	is := is.New(t)
	rs := startRedis(t)
	f := attackFleet(t, rs, "restart", 2, nil)
	s := open(t, f.urls[0], "alice-token")
	key := "vurb:restart:session:" + s
	waitSaved(t, rs.client(t), "restart", s) // saved as initialized: what the restart is to lose
	rs.stop()
	rs.restart(t)
	_, err := rs.client(t).Get(context.Background(), key).Result()
	is.True(errors.Is(err, redis.Nil)) // the record is gone
	// A replica that never held it asks the others at once, and answers
	// 503 with Retry-After while the replicas save their records again:
	// never 404, and within the probe's interval it serves the session.
	deadline := time.Now().Add(5 * time.Second)
	for {
		a := callIn(t, f.urls[1], "alice-token", s, "docs_read")
		if a.works() {
			break
		}
		if a.status != http.StatusServiceUnavailable || a.header.Get("Retry-After") == "" || time.Now().After(deadline) {
			t.Fatalf("a live session after a restart: %d %s", a.status, a.body)
		}
		time.Sleep(200 * time.Millisecond)
	}
	is.True(rs.client(t).Exists(context.Background(), key).Val() == 1) // saved again
	is.True(callIn(t, f.urls[0], "alice-token", s, "docs_read").works())
}

// Redis hangs (SIGSTOP: it accepts nothing and answers nothing, as a
// store slowed past every timeout): the replica that holds a session
// serves its calls from memory, with no store call on their path, and a
// replica that does not hold it answers 503 within the store's timeout,
// never 404; once Redis answers again, both serve it.
func TestSessionsServedThroughAHungStore(t *testing.T) {
	is := is.New(t)
	rs := startRedis(t)
	f := attackFleet(t, rs, "hung", 2, nil)
	s := open(t, f.urls[0], "alice-token")
	waitSaved(t, rs.client(t), "hung", s)
	is.NoErr(rs.Signal(syscall.SIGSTOP))
	resumed := false
	resume := func() {
		if !resumed {
			resumed = true
			is.NoErr(rs.Signal(syscall.SIGCONT))
		}
	}
	defer resume()
	for range 5 {
		began := time.Now()
		is.True(callIn(t, f.urls[0], "alice-token", s, "docs_read").works())
		is.True(time.Since(began) < 200*time.Millisecond) // no store call waited on
	}
	began := time.Now()
	a := callIn(t, f.urls[1], "alice-token", s, "docs_read")
	is.Equal(a.status, http.StatusServiceUnavailable)
	is.True(a.header.Get("Retry-After") != "")
	is.True(time.Since(began) < 2*time.Second) // the store's timeout, not a hang
	resume()
	deadline := time.Now().Add(5 * time.Second)
	for !callIn(t, f.urls[1], "alice-token", s, "docs_read").works() {
		if time.Now().After(deadline) {
			t.Fatal("the other replica never served the session once Redis answered again")
		}
		time.Sleep(100 * time.Millisecond)
	}
}
