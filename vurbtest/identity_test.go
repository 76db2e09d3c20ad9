package vurbtest_test

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/vurbtest"
)

// extraRecorder is an app whose go-sdk server records the Extra of the
// roots/list_changed notifications it receives: the go-sdk's own request,
// below vurb (the root package's caller_test.go checks what handlers see).
func extraRecorder() (*vurb.App, func() *mcp.RequestExtra) {
	var mu sync.Mutex
	var last *mcp.RequestExtra
	got := make(chan struct{}, 1)
	app := newApp(vurb.WithServerOptions(&mcp.ServerOptions{
		RootsListChangedHandler: func(_ context.Context, r *mcp.RootsListChangedRequest) {
			mu.Lock()
			defer mu.Unlock()
			last = r.Extra
			got <- struct{}{}
		},
	}))
	return app, func() *mcp.RequestExtra {
		select {
		case <-got:
		case <-time.After(5 * time.Second):
		}
		mu.Lock()
		defer mu.Unlock()
		return last
	}
}

func TestIdentityReachesTheServersRequests(t *testing.T) {
	noLeaks(t)
	alice := vurbtest.Identity{
		Token:  &auth.TokenInfo{UserID: "alice", Scopes: []string{"projects:read"}, Expiration: time.Now().Add(time.Hour)},
		Header: http.Header{"X-Tenant": {"acme"}},
	}
	for _, tr := range transports[:2] { // the notification needs a session
		t.Run(tr.name, func(t *testing.T) {
			is := is.New(t)
			app, extra := extraRecorder()
			c := vurbtest.New(t, app, append(tr.opts, alice)...)
			c.AddRoots(&mcp.Root{URI: "file:///work"})
			e := extra()
			is.True(e != nil)
			is.Equal(e.TokenInfo.UserID, "alice")
			is.Equal(e.TokenInfo.Scopes, []string{"projects:read"})
			is.Equal(e.Header.Get("X-Tenant"), "acme")
			is.Equal(c.CallText("projects_delete", DeleteProject{WorkspaceID: "w", ID: "p1"}), "deleted p1")
		})
	}
}

func TestIdentityOverHTTP(t *testing.T) {
	noLeaks(t)
	for _, rev := range []string{vurbtest.DefaultProtocol, vurbtest.Sessionless} {
		t.Run(rev, func(t *testing.T) {
			is := is.New(t)
			var mu sync.Mutex
			var seen []http.Header
			record := func(next http.Handler) http.Handler {
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					mu.Lock()
					seen = append(seen, r.Header.Clone())
					mu.Unlock()
					next.ServeHTTP(w, r)
				})
			}
			c := vurbtest.New(t, newApp(), vurbtest.OverHTTP(record), vurbtest.Protocol(rev), vurbtest.Identity{
				Token:  &auth.TokenInfo{UserID: "bob"}, // no expiry: accepted
				Header: http.Header{"X-Tenant": {"acme"}},
			})
			is.Equal(c.CallText("projects_names", nil), `["Apollo","Gemini"]`)
			mu.Lock()
			defer mu.Unlock()
			is.True(len(seen) > 0)
			for _, h := range seen {
				is.Equal(h.Get("X-Tenant"), "acme")
				is.Equal(h.Get("Authorization"), "Bearer vurbtest-token")
			}
		})
	}
}

func TestIdentityFailures(t *testing.T) {
	noLeaks(t)
	mustFail(t, func(t testing.TB) {
		vurbtest.New(t, newApp(), vurbtest.Identity{
			Token:  &auth.TokenInfo{UserID: "carol"},
			Header: http.Header{"Authorization": {"Bearer real"}},
		})
	}, "vurbtest: Identity has both a Token and an Authorization header")

	// The go-sdk's middleware refuses an expired token, as it would in production.
	mustFail(t, func(t testing.TB) {
		vurbtest.New(t, newApp(), vurbtest.OverHTTP(), vurbtest.Identity{
			Token: &auth.TokenInfo{UserID: "dave", Expiration: time.Now().Add(-time.Minute)},
		})
	}, "vurbtest: connecting over HTTP with protocol 2025-11-25: ", "Unauthorized")
}

// Requests without an Identity carry nothing of one.
func TestAnonymous(t *testing.T) {
	noLeaks(t)
	is := is.New(t)
	app, extra := extraRecorder()
	c := vurbtest.New(t, app)
	c.AddRoots(&mcp.Root{URI: "file:///work"})
	is.Equal(extra(), (*mcp.RequestExtra)(nil))
}
