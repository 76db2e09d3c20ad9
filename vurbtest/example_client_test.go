package vurbtest_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/vurbtest"
)

// Examples of the client's side: the revision and transport it uses, who
// it is, what it answers and what it records.

func ExampleClient_Progress() {
	test(func(t testing.TB) {
		c := vurbtest.New(t, newApp())
		c.CallText("jobs_run", nil, vurbtest.ProgressToken("job-1"))
		for _, p := range c.Progress(3) {
			fmt.Println(p.ProgressToken, p.Progress, p.Total, p.Message)
		}
	})
	// Output:
	// job-1 1 3 step 1
	// job-1 2 3 step 2
	// job-1 3 3 step 3
}

func ExampleClient_Logs() {
	test(func(t testing.TB) {
		c := vurbtest.New(t, newApp(), vurbtest.LogLevel("info"))
		c.CallText("jobs_run", nil)
		for _, l := range c.Logs(1) { // the debug line is below info
			fmt.Println(l.Level, l.Logger, l.Data)
		}
	})
	// Output:
	// warning jobs map[disk:low]
}

func ExampleClient_ResourceUpdates() {
	test(func(t testing.TB) {
		app := newApp()
		c := vurbtest.New(t, app)
		if err := c.Session().Subscribe(context.Background(), &mcp.SubscribeParams{URI: "config://app"}); err != nil {
			t.Fatalf("subscribe: %v", err)
		}
		if err := app.NotifyResourceUpdated(context.Background(), "config://app"); err != nil {
			t.Fatalf("notify: %v", err)
		}
		fmt.Println(c.ResourceUpdates(1))
	})
	// Output:
	// [config://app]
}

func ExampleProtocol() {
	test(func(t testing.TB) {
		for _, rev := range []string{"2025-06-18", vurbtest.DefaultProtocol, vurbtest.Sessionless} {
			c := vurbtest.New(t, newApp(), vurbtest.Protocol(rev))
			fmt.Println(c.Protocol(), c.CallText("projects_delete", DeleteProject{WorkspaceID: "w1", ID: "p1"}))
		}
	})
	// Output:
	// 2025-06-18 deleted p1
	// 2025-11-25 deleted p1
	// 2026-07-28 deleted p1
}

func ExampleOverHTTP() {
	test(func(t testing.TB) {
		requestID := func(next http.Handler) http.Handler { // your own middleware, outside the app
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("X-Request-Id", "r1")
				next.ServeHTTP(w, r)
			})
		}
		c := vurbtest.New(t, newApp(), vurbtest.OverHTTP(requestID), vurbtest.Serve(vurb.WithStateless()))
		fmt.Println(c.CallText("projects_names", nil))
	})
	// Output:
	// ["Apollo","Gemini"]
}

func ExampleServe() {
	test(func(t testing.TB) {
		c := vurbtest.New(t, newApp(), vurbtest.Serve(vurb.WithExcludeTags("write")))
		_, err := c.CallResult("projects_delete", DeleteProject{WorkspaceID: "w1", ID: "p1"})
		fmt.Println(err)
	})
	// Output:
	// calling "tools/call": unknown tool "projects_delete"
}

func ExampleIdentity() {
	test(func(t testing.TB) {
		seen := make(chan *mcp.RequestExtra, 1)
		app := newApp(vurb.WithServerOptions(&mcp.ServerOptions{
			RootsListChangedHandler: func(_ context.Context, r *mcp.RootsListChangedRequest) { seen <- r.Extra },
		}))
		c := vurbtest.New(t, app, vurbtest.OverHTTP(), vurbtest.Identity{
			Token:  &auth.TokenInfo{UserID: "alice", Scopes: []string{"projects:read"}},
			Header: http.Header{"X-Tenant": {"acme"}},
		})
		c.AddRoots(&mcp.Root{URI: "file:///work"}) // any request: its Extra carries the identity
		extra := <-seen
		fmt.Println(extra.TokenInfo.UserID, extra.TokenInfo.Scopes, extra.Header.Get("X-Tenant"))
	})
	// Output:
	// alice [projects:read] acme
}

func ExampleOnElicit() {
	test(func(t testing.TB) {
		for _, rev := range []string{vurbtest.DefaultProtocol, vurbtest.Sessionless} {
			c := vurbtest.New(t, newApp(), vurbtest.Protocol(rev), vurbtest.OnElicit(vurbtest.Accept(map[string]any{"sure": true})))
			fmt.Println(rev, c.CallText("ai_confirm", nil))
		}
	})
	// Output:
	// 2025-11-25 accept true
	// 2026-07-28 accept true
}

func ExampleDecline() {
	test(func(t testing.TB) {
		c := vurbtest.New(t, newApp(), vurbtest.OnElicit(vurbtest.Decline()))
		fmt.Println(c.CallText("ai_confirm", nil))
	})
	// Output:
	// decline <nil>
}

func ExampleOnSample() {
	test(func(t testing.TB) {
		c := vurbtest.New(t, newApp(), vurbtest.OnSample(vurbtest.Reply("a short summary")))
		fmt.Println(c.CallText("ai_summarize", nil))
	})
	// Output:
	// model said: a short summary
}

func ExampleRoots() {
	test(func(t testing.TB) {
		c := vurbtest.New(t, newApp(), vurbtest.Roots(&mcp.Root{URI: "file:///work", Name: "work"}))
		fmt.Println(c.CallText("fs_roots", nil))
		c.AddRoots(&mcp.Root{URI: "file:///tmp"})
		fmt.Println(c.CallText("fs_roots", nil))
	})
	// Output:
	// file:///work
	// file:///tmp,file:///work
}

func ExampleCancelWhen() {
	test(func(t testing.TB) {
		started := make(chan struct{})
		app := vurb.New()
		vurb.Query(app, "jobs.wait", func(ctx context.Context, _ struct{}) (string, error) {
			close(started)
			<-ctx.Done() // the client's cancellation reaches the handler
			return "", ctx.Err()
		})
		c := vurbtest.New(t, app)
		_, err := c.CallResult("jobs_wait", nil, vurbtest.CancelWhen(started))
		fmt.Println(errors.Is(err, context.Canceled))
	})
	// Output:
	// true
}

func ExampleContext() {
	test(func(t testing.TB) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
		defer cancel()
		c := vurbtest.New(t, newWaiter().app)
		_, err := c.CallResult("jobs_wait", nil, vurbtest.Context(ctx))
		fmt.Println(err)
	})
	// Output:
	// context deadline exceeded
}

func ExampleTimeout() {
	test(func(t testing.TB) {
		c := vurbtest.New(t, newWaiter().app, vurbtest.Timeout(10*time.Millisecond))
		_, err := c.CallResult("jobs_wait", nil)
		fmt.Println(err)
	})
	// Output:
	// no answer within 10ms (vurbtest.Timeout): context deadline exceeded
}

func ExampleMeta() {
	test(func(t testing.TB) {
		c := vurbtest.New(t, newApp())
		c.CallText("jobs_run", nil, vurbtest.Meta(mcp.Meta{"progressToken": 42}))
		fmt.Println(c.Progress(3)[2].ProgressToken)
	})
	// Output:
	// 42
}

func ExampleClientOptions() {
	test(func(t testing.TB) {
		c := vurbtest.New(t, newApp(), vurbtest.ClientOptions(&mcp.ClientOptions{
			ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
				// called after vurbtest records the notification
			},
		}))
		c.CallText("jobs_run", nil, vurbtest.ProgressToken(1))
		fmt.Println(len(c.Progress(3)))
	})
	// Output:
	// 3
}
