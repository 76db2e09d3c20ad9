package vurb_test

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/observe"
	"github.com/vurb-go/vurb/store"
	"github.com/vurb-go/vurb/vurbtest"
)

type echoIn struct {
	Text string `json:"text" description:"What to say back"`
}

func echo(_ context.Context, in echoIn) (string, error) { return in.Text, nil }

// A call past an action's rate limit is an error result that says the rate
// and when a retry can succeed; the observer sees it end "limited".
func TestRateLimitRefusesSayingWhenToRetry(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	var mu sync.Mutex
	var outcomes []observe.Outcome
	app := vurb.New(vurb.WithObserver(func(_ context.Context, e observe.Event) {
		if e.Kind == observe.CallFinished {
			mu.Lock()
			outcomes = append(outcomes, e.Outcome)
			mu.Unlock()
		}
	}))
	vurb.Query(app, "notes.search", echo).RateLimit(vurb.AllCallers(2, time.Minute))
	c := vurbtest.New(t, app)

	is.Equal(c.CallText("notes_search", echoIn{"a"}), "a")
	is.Equal(c.CallText("notes_search", echoIn{"b"}), "b")
	// 2 calls a minute: the next token comes 30 s after the first call.
	is.Equal(c.CallError("notes_search", echoIn{"c"}),
		"[notes_search] rate limit reached (2 calls per minute); retry in 30s, not sooner")
	// Arguments the validator refuses spend no token: the model reads the
	// problem, not the limit.
	is.True(strings.Contains(c.CallError("notes_search", map[string]any{"txt": "d"}), "invalid arguments"))
	mu.Lock()
	defer mu.Unlock()
	is.Equal(outcomes, []observe.Outcome{observe.OutcomeOK, observe.OutcomeOK, observe.OutcomeLimited, observe.OutcomeValidation})
}

// A limit declared on a tool counts the calls of all its actions together;
// one on the app, every call; each action still has its own.
func TestRateLimitCountsTheScopeThatDeclaresIt(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	app := vurb.New(vurb.WithRateLimit(vurb.AllCallers(5, time.Hour)))
	tool := app.Tool("files").RateLimit(vurb.AllCallers(3, time.Hour))
	vurb.Query(tool, "read", echo).RateLimit(vurb.AllCallers(1, time.Hour))
	vurb.Query(tool, "list", echo)
	vurb.Query(app, "other.ping", echo)
	c := vurbtest.New(t, app)

	is.Equal(c.CallText("files_read", echoIn{"1"}), "1")
	is.Equal(c.CallError("files_read", echoIn{"2"}), // the action's own limit
		"[files_read] rate limit reached (1 call per hour); retry in 1h0m0s, not sooner")
	is.Equal(c.CallText("files_list", echoIn{"3"}), "3")
	is.Equal(c.CallError("files_list", echoIn{"4"}), // the tool's: read's refused call spent a token too
		"[files_list] rate limit reached (3 calls per hour); retry in 20m0s, not sooner")
	is.Equal(c.CallText("other_ping", echoIn{"5"}), "5") // the app's: 5 calls so far
	is.Equal(c.CallError("other_ping", echoIn{"6"}),
		"[other_ping] rate limit reached (5 calls per hour); retry in 12m0s, not sooner")
}

// A group's limits cover its actions, and no other group's.
func TestLimitsOfAGroup(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	app := vurb.New()
	admin := app.Tool("admin")
	users := admin.Group("users", "User accounts").RateLimit(vurb.AllCallers(1, time.Hour)).MaxOutput(3).MaxConcurrent(1, 0)
	vurb.Query(users, "list", echo)
	vurb.Query(users, "show", echo)
	vurb.Query(admin.Group("teams", "Teams"), "list", echo)
	c := vurbtest.New(t, app)
	res, err := c.CallResult("admin_users_list", echoIn{"abcd"})
	is.NoErr(err)
	is.Equal(texts(res)[0], "abc")
	is.Equal(c.CallError("admin_users_show", echoIn{"x"}),
		"[admin_users_show] rate limit reached (1 call per hour); retry in 1h0m0s, not sooner")
	is.Equal(c.CallText("admin_teams_list", echoIn{"abcd"}), "abcd")
}

// Each caller has a bucket of its own under a PerCaller limit, named by
// the token's subject (whatever the session), else, over HTTP, by the host.
func TestRateLimitPerCaller(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	app := vurb.New()
	vurb.Query(app, "notes.search", echo).RateLimit(vurb.PerCaller(1, time.Minute))
	as := func(user string) vurbtest.Option { return vurbtest.Identity{Token: &auth.TokenInfo{UserID: user}} }
	alice, aliceAgain, bob := vurbtest.New(t, app, as("alice")), vurbtest.New(t, app, as("alice")), vurbtest.New(t, app, as("bob"))
	is.Equal(alice.CallText("notes_search", echoIn{"a"}), "a")
	is.Equal(aliceAgain.CallError("notes_search", echoIn{"a"}), // another session, the same user
		"[notes_search] rate limit reached (1 call per minute); retry in 1m0s, not sooner")
	is.Equal(bob.CallText("notes_search", echoIn{"b"}), "b")

	// Anonymous callers over HTTP are told apart by the host they connect
	// from, not by their session: a new session does not refill the bucket.
	one, other := vurbtest.New(t, app, vurbtest.OverHTTP()), vurbtest.New(t, app, vurbtest.OverHTTP())
	is.Equal(one.CallText("notes_search", echoIn{"1"}), "1")
	is.True(strings.Contains(one.CallError("notes_search", echoIn{"1"}), "rate limit reached"))
	is.True(strings.Contains(other.CallError("notes_search", echoIn{"2"}), "rate limit reached"))
}

// Over HTTP without sessions (revision 2026-07-28, vurb's fast lane), the
// token's subject still names the bucket.
func TestRateLimitPerCallerSessionless(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	app := vurb.New()
	vurb.Query(app, "notes.search", echo).RateLimit(vurb.PerCaller(1, time.Minute))
	as := func(user string) *vurbtest.Client {
		return vurbtest.New(t, app, vurbtest.OverHTTP(), vurbtest.Protocol(vurbtest.Sessionless),
			vurbtest.Identity{Token: &auth.TokenInfo{UserID: user, Expiration: time.Now().Add(time.Hour)}})
	}
	alice, bob := as("alice"), as("bob")
	is.Equal(alice.CallText("notes_search", echoIn{"a"}), "a")
	is.Equal(alice.CallError("notes_search", echoIn{"a"}),
		"[notes_search] rate limit reached (1 call per minute); retry in 1m0s, not sooner")
	is.Equal(bob.CallText("notes_search", echoIn{"b"}), "b")
}

// KeyedBy names buckets otherwise: here one per tenant, whoever calls.
func TestRateLimitKeyedBy(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	app := vurb.New()
	perTenant := vurb.PerCaller(1, time.Minute).KeyedBy(func(_ context.Context, c *vurb.Caller) string {
		return c.Header.Get("X-Tenant")
	})
	vurb.Query(app, "notes.search", echo).RateLimit(perTenant)
	in := func(tenant, user string) vurbtest.Option {
		return vurbtest.Identity{Token: &auth.TokenInfo{UserID: user}, Header: http.Header{"X-Tenant": {tenant}}}
	}
	is.Equal(vurbtest.New(t, app, in("acme", "alice")).CallText("notes_search", echoIn{"a"}), "a")
	is.True(strings.Contains(vurbtest.New(t, app, in("acme", "bob")).CallError("notes_search", echoIn{"b"}), "rate limit reached"))
	is.Equal(vurbtest.New(t, app, in("globex", "carol")).CallText("notes_search", echoIn{"c"}), "c")
}

// A call that finds the action's handlers all running waits for a slot,
// up to the wait given, then is refused saying so.
func TestMaxConcurrentWaitsThenRefuses(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	release := make(chan struct{})
	started := make(chan struct{}, 2)
	hold := func(_ context.Context, in echoIn) (string, error) {
		if in.Text == "hold" {
			started <- struct{}{}
			<-release
		}
		return in.Text, nil
	}
	app := vurb.New()
	vurb.Query(app, "reports.build", hold).MaxConcurrent(1, 50*time.Millisecond)
	vurb.Query(app, "reports.queue", hold).MaxConcurrent(1, time.Minute)
	c := vurbtest.New(t, app)

	done := make(chan string, 2)
	go func() { done <- c.CallText("reports_build", echoIn{"hold"}) }()
	go func() { done <- c.CallText("reports_queue", echoIn{"hold"}) }()
	<-started
	<-started
	is.Equal(c.CallError("reports_build", echoIn{"next"}),
		"[reports_build] this action's limit of concurrent calls (1) is reached and none ended within 50ms; retry in a few seconds")

	// A call waiting when the slot is given back runs.
	waited := make(chan string)
	go func() { waited <- c.CallText("reports_queue", echoIn{"after"}) }()
	time.Sleep(10 * time.Millisecond) // usually waiting by now; if not, it finds the slot free
	close(release)
	is.Equal(<-done+<-done, "holdhold")
	is.Equal(<-waited, "after")
}

// A call refused as busy spends no rate token: the rate counts the calls
// that could run, and a client retrying a busy action is not pushed past
// its rate by the refusals.
func TestBusyRefusalsSpendNoRateToken(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	release := make(chan struct{})
	started := make(chan struct{})
	app := vurb.New()
	vurb.Query(app, "reports.build", func(_ context.Context, in echoIn) (string, error) {
		if in.Text == "hold" {
			close(started)
			<-release
		}
		return in.Text, nil
	}).MaxConcurrent(1, 0).RateLimit(vurb.PerCaller(2, time.Hour))
	c := vurbtest.New(t, app)

	done := make(chan string)
	go func() { done <- c.CallText("reports_build", echoIn{"hold"}) }() // token 1 of 2
	<-started
	for range 3 {
		is.True(strings.Contains(c.CallError("reports_build", echoIn{"busy"}), "limit of concurrent calls"))
	}
	close(release)
	is.Equal(<-done, "hold")
	is.Equal(c.CallText("reports_build", echoIn{"second"}), "second") // token 2: the refusals spent none
	is.True(strings.Contains(c.CallError("reports_build", echoIn{"third"}), "rate limit reached"))
}

// A rate limit that panics (a KeyedBy function, a RateStore) while its
// call holds a concurrency slot gives the slot back: the panic is
// recovered and answered as an internal error, and the action's next
// call runs instead of finding every slot taken for good.
func TestPanickingRateLimitKeepsNoSlot(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	var calls atomic.Int32
	app := vurb.New(vurb.WithLogger(slog.New(slog.DiscardHandler)))
	vurb.Query(app, "reports.build", echo).MaxConcurrent(1, 0).
		RateLimit(vurb.PerCaller(100, time.Minute).KeyedBy(func(context.Context, *vurb.Caller) string {
			if calls.Add(1) == 1 {
				panic("no tenant")
			}
			return "tenant"
		}))
	c := vurbtest.New(t, app)

	res, err := c.CallResult("reports_build", echoIn{"first"})
	is.NoErr(err)
	is.True(res.IsError) // the panic, answered as an internal error, as a handler's is
	is.True(strings.Contains(res.Content[0].(*mcp.TextContent).Text, "ref "))
	is.Equal(c.CallText("reports_build", echoIn{"second"}), "second")
}

// The innermost level that sets a cap wins, and a negative cap removes an
// enclosing one.
func TestMaxConcurrentLevels(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	release := make(chan struct{})
	started := make(chan string, 4)
	hold := func(_ context.Context, in echoIn) (string, error) {
		started <- in.Text
		<-release
		return in.Text, nil
	}
	app := vurb.New(vurb.WithMaxConcurrent(1, 0))
	tool := app.Tool("jobs").MaxConcurrent(2, 0)
	vurb.Query(tool, "capped", hold)
	vurb.Query(tool, "free", hold).MaxConcurrent(-1, 0)
	c := vurbtest.New(t, app)

	var wg sync.WaitGroup
	for _, name := range []string{"jobs_capped", "jobs_capped", "jobs_free", "jobs_free"} {
		wg.Go(func() { c.CallText(name, echoIn{name}) })
	}
	for range 4 {
		<-started
	}
	is.Equal(c.CallError("jobs_capped", echoIn{"x"}),
		"[jobs_capped] this action's limit of concurrent calls (2) is reached and none ended within 0s; retry in a few seconds")
	close(release)
	wg.Wait()
}

// A result over the output cap is cut at a character boundary and ends
// with a note that tells the model to narrow its request.
func TestMaxOutputTruncatesAndSaysSo(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	app := vurb.New(vurb.WithMaxOutput(8))
	vurb.Query(app, "docs.read", echo)
	vurb.Query(app, "docs.blocks", func(context.Context, struct{}) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{
			&mcp.TextContent{Text: "abcd"}, &mcp.ImageContent{MIMEType: "image/png", Data: []byte{1}},
			&mcp.TextContent{Text: "efgh"}, &mcp.TextContent{Text: "ijkl"},
		}}, nil
	})
	type page struct {
		Items []string `json:"items"`
	}
	vurb.Query(app, "docs.page", func(context.Context, struct{}) (page, error) {
		return page{Items: []string{"one", "two", "three"}}, nil
	}).MaxOutput(12)
	vurb.Query(app, "docs.raw", echo).MaxOutput(-1)
	c := vurbtest.New(t, app)

	res, err := c.CallResult("docs_read", echoIn{"aéééé"})
	is.NoErr(err)
	is.True(!res.IsError)
	is.Equal(texts(res), []string{"aééé", // 8 bytes would split an é
		"[docs_read] output truncated to 7 of 9 bytes; narrow the request (a filter, fewer fields, a smaller page) to get the rest"})

	res, err = c.CallResult("docs_blocks", nil)
	is.NoErr(err)
	is.Equal(len(res.Content), 4) // abcd, the image, efgh, the note; ijkl dropped
	is.Equal(texts(res), []string{"abcd", "efgh",
		"[docs_blocks] output truncated to 8 of 12 bytes; narrow the request (a filter, fewer fields, a smaller page) to get the rest"})

	// Structured content cannot be cut: the result is an error without it.
	res, err = c.CallResult("docs_page", nil)
	is.NoErr(err)
	is.True(res.IsError)
	is.Equal(res.StructuredContent, nil)
	is.Equal(texts(res)[0], `{"items":["o`)

	is.Equal(c.CallText("docs_raw", echoIn{"no cap at all"}), "no cap at all")
}

// By default a result is cut at 1 MiB of text.
func TestMaxOutputDefault(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	app := vurb.New()
	vurb.Query(app, "dump.all", func(context.Context, struct{}) (string, error) {
		return strings.Repeat("x", 1<<20+1), nil
	})
	res, err := app.Call(context.Background(), "dump_all", nil)
	is.NoErr(err)
	got := texts(res)
	is.Equal(len(got[0]), 1<<20)
	is.Equal(got[1], "[dump_all] output truncated to 1048576 of 1048577 bytes; "+
		"narrow the request (a filter, fewer fields, a smaller page) to get the rest")
}

// The limits' texts are the app's, reworded with WithMessages.
func TestLimitMessagesAreTheApps(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	app := vurb.New(vurb.WithMessages(vurb.Messages{
		RateLimited: "slow down (%s), again in %s",
		Truncated:   "cut at %d of %d",
	}))
	vurb.Query(app, "a.b", echo).RateLimit(vurb.AllCallers(1, time.Minute).Burst(1)).MaxOutput(2)
	c := vurbtest.New(t, app)
	res, err := c.CallResult("a_b", echoIn{"xyz"})
	is.NoErr(err)
	is.Equal(texts(res), []string{"xy", "[a_b] cut at 2 of 3"})
	is.Equal(c.CallError("a_b", echoIn{"xyz"}), "[a_b] slow down (1 call per minute), again in 1m0s")
}

// Definition mistakes panic at the line that made them.
func TestLimitDefinitionMistakes(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	for name, f := range map[string]func(){
		"zero calls":    func() { vurb.PerCaller(0, time.Second) },
		"zero period":   func() { vurb.AllCallers(1, 0) },
		"zero burst":    func() { vurb.PerCaller(1, time.Second).Burst(0) },
		"zero cap":      func() { vurb.WithMaxConcurrent(0, time.Second) },
		"negative wait": func() { vurb.Query(vurb.New(), "a.b", echo).MaxConcurrent(1, -time.Second) },
		"zero output":   func() { vurb.Query(vurb.New(), "a.b", echo).MaxOutput(0) },
		"zero limit": func() {
			app := vurb.New()
			vurb.Query(app, "a.b", echo).RateLimit(vurb.RateLimit{})
			app.Build()
		},
	} {
		func() {
			defer func() {
				p := recover()
				if p == nil {
					t.Errorf("%s: no panic", name)
					return
				}
				is.True(strings.HasPrefix(p.(string), "vurb: "))
			}()
			f()
		}()
	}
}

func texts(res *mcp.CallToolResult) []string {
	var out []string
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			out = append(out, t.Text)
		}
	}
	return out
}

// failingStore is a RateStore that is down.
type failingStore struct{}

func (failingStore) Take(context.Context, string, store.Rate) (bool, time.Duration, error) {
	return false, 0, errors.New("connection refused")
}

// A store that fails lets calls through, and the app's log says so: a
// limiter that is down must not take the server down with it.
func TestRateStoreFailureLetsCallsThrough(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	var log syncBuffer
	app := vurb.New(vurb.WithRateStore(failingStore{}), vurb.WithLogger(slog.New(slog.NewTextHandler(&log, nil))))
	vurb.Query(app, "notes.search", echo).RateLimit(vurb.AllCallers(1, time.Hour))
	c := vurbtest.New(t, app)
	is.Equal(c.CallText("notes_search", echoIn{"a"}), "a")
	is.Equal(c.CallText("notes_search", echoIn{"b"}), "b")
	is.True(strings.Contains(log.String(), `msg="vurb: rate store failed; the call goes through unlimited" tool=notes action=search limit=notes.search#0 err="connection refused"`))
}

// A caller that gives up while its call waits for a slot is not kept
// waiting: the call ends cancelled, and the slot's holder runs on.
func TestMaxConcurrentWaitEndsWithTheCaller(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	release := make(chan struct{})
	started := make(chan struct{})
	var mu sync.Mutex
	var outcomes []observe.Outcome
	app := vurb.New(vurb.WithObserver(func(_ context.Context, e observe.Event) {
		if e.Kind == observe.CallFinished {
			mu.Lock()
			outcomes = append(outcomes, e.Outcome)
			mu.Unlock()
		}
	}))
	vurb.Query(app, "jobs.run", func(context.Context, struct{}) (string, error) {
		close(started)
		<-release
		return "done", nil
	}).MaxConcurrent(1, time.Hour)
	done := make(chan string)
	go func() {
		res, _ := app.Call(context.Background(), "jobs_run", nil)
		done <- texts(res)[0]
	}()
	<-started
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	_, err := app.Call(ctx, "jobs_run", nil)
	is.True(errors.Is(err, context.DeadlineExceeded))
	close(release)
	is.Equal(<-done, "done")
	mu.Lock()
	defer mu.Unlock()
	is.Equal(outcomes, []observe.Outcome{observe.OutcomeCancelled, observe.OutcomeOK})
}

// Anonymous sessionless callers over HTTP are told apart by the host they
// connect from: one that spends its budget does not spend another's. Two
// real clients each time, one dialing from 127.0.0.1, the other from
// 127.0.0.2: through the fast lane, through it with request middleware,
// and through the go-sdk's stateless handler for the handshake revision.
func TestRateLimitPerCallerAnonymousByHost(t *testing.T) {
	t.Parallel()
	passOn := func(next mcp.MethodHandler) mcp.MethodHandler { return next }
	for _, tc := range []struct {
		name     string
		opts     []vurb.Option
		serve    []vurb.ServeOption
		protocol string
	}{
		{"fast lane", nil, nil, vurbtest.Sessionless},
		{"fast lane with middleware", []vurb.Option{vurb.WithRequestMiddleware(passOn)}, nil, vurbtest.Sessionless},
		{"stateless go-sdk", nil, []vurb.ServeOption{vurb.WithStateless()}, "2025-11-25"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			app := vurb.New(tc.opts...)
			vurb.Query(app, "notes.search", echo).RateLimit(vurb.PerCaller(1, time.Minute))
			vurb.Query(app, "notes.whoami", func(ctx context.Context, _ struct{}) (string, error) {
				return vurb.CallerFrom(ctx).RemoteAddr, nil
			})
			srv := httptest.NewServer(app.HTTPHandler(tc.serve...))
			t.Cleanup(srv.Close)
			for _, host := range []string{"127.0.0.1", "127.0.0.2"} {
				is := is.New(t)
				dialer := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(host)}}
				client := &http.Client{Transport: &http.Transport{DialContext: dialer.DialContext}}
				cs, err := mcp.NewClient(&mcp.Implementation{Name: "anon"}, nil).Connect(context.Background(),
					&mcp.StreamableClientTransport{Endpoint: srv.URL, HTTPClient: client},
					&mcp.ClientSessionOptions{ProtocolVersion: tc.protocol})
				is.NoErr(err)
				call := func(name string, args any) *mcp.CallToolResult {
					res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
					is.NoErr(err)
					return res
				}
				addr := texts(call("notes_whoami", map[string]any{}))[0]
				is.True(strings.HasPrefix(addr, host+":"))                                                   // the handler sees the client's address
				is.True(!call("notes_search", echoIn{"x"}).IsError)                                          // its own budget
				is.True(strings.Contains(texts(call("notes_search", echoIn{"x"}))[0], "rate limit reached")) // spent
				cs.Close()
			}
		})
	}
}
