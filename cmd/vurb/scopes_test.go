package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	vurbapp "github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/manifest"
)

// scopedToken is the one token the scoped servers accept: it holds every
// scope they ask for.
const scopedToken = "Authorization: Bearer ops-token"

// scopes are what each action of a scoped app needs.
type scopes struct{ list, del []string }

var (
	noScopes   = scopes{}
	someScopes = scopes{[]string{"projects:read"}, []string{"projects:write"}}
	moreScopes = scopes{[]string{"projects:read"}, []string{"projects:write", "projects:admin"}}
)

// scopedApp is an app of two actions that need the scopes s
// (RequireScopes).
func scopedApp(s scopes, opts ...vurbapp.Option) *vurbapp.App {
	app := vurbapp.New(append([]vurbapp.Option{vurbapp.WithName("ops"), vurbapp.WithVersion("1.0.0")}, opts...)...)
	list := vurbapp.Query(app, "projects.list", func(context.Context, struct{}) (string, error) { return "p1", nil })
	del := vurbapp.Mutation(app, "projects.delete", func(context.Context, struct {
		ID string `json:"id"`
	}) (string, error) {
		return "deleted", nil
	})
	if len(s.list) > 0 {
		list.RequireScopes(s.list...)
	}
	if len(s.del) > 0 {
		del.RequireScopes(s.del...)
	}
	return app
}

// scopedServer serves, over HTTP behind bearer auth, the scopedApp of s
// publishing its manifest.
func scopedServer(t *testing.T, s scopes, opts ...vurbapp.Option) string {
	t.Helper()
	app := scopedApp(s, opts...)
	app.PublishManifest()
	return serveWithToken(t, app)
}

// serveWithToken serves app over HTTP behind bearer auth accepting
// scopedToken alone, and returns its URL.
func serveWithToken(t *testing.T, app *vurbapp.App) string {
	t.Helper()
	verify := func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		if token != "ops-token" {
			return nil, fmt.Errorf("%w: unknown token", auth.ErrInvalidToken)
		}
		return &auth.TokenInfo{UserID: "ops", Scopes: []string{"projects:read", "projects:write", "projects:admin"}, Expiration: time.Now().Add(time.Hour)}, nil
	}
	srv := httptest.NewUnstartedServer(nil)
	resource := "http://" + srv.Listener.Addr().String() + "/mcp"
	srv.Config.Handler = app.HTTPHandler(vurbapp.WithBearerAuth(verify, &oauthex.ProtectedResourceMetadata{Resource: resource}, nil))
	srv.Start()
	t.Cleanup(srv.Close)
	return resource
}

// runVurb runs the vurb command in this process, as a user runs it.
func runVurb(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = run(context.Background(), append(args, "-timeout", "30s"), &out, &errOut)
	return code, out.String(), errOut.String()
}

// A vurb server whose actions need scopes publishes a manifest that says
// so, though its tools/list cannot: vurb uses it (#46, defect 2).
func TestPublishedManifestOfScopedActionsIsUsed(t *testing.T) {
	for _, grouped := range []bool{false, true} {
		t.Run(fmt.Sprintf("grouped=%v", grouped), func(t *testing.T) {
			is := is.New(t)
			var opts []vurbapp.Option
			if grouped {
				opts = append(opts, vurbapp.WithExposition(vurbapp.Grouped))
			}
			url := scopedServer(t, someScopes, opts...)
			code, stdout, stderr := runVurb("manifest", "-H", scopedToken, url)
			is.Equal(code, 0)
			is.True(!strings.Contains(stderr, "ignoring it")) // the published manifest describes the listed tools
			is.True(strings.Contains(stdout, `"actions": [`)) // and its actions are in the manifest vurb writes
			is.True(strings.Contains(stdout, `"projects:write"`))
		})
	}
}

// Adding RequireScopes to every action breaks callers whose tokens lack
// the scopes: vurb diff between the two servers says so, as does adding a
// scope to an action that had some (#46, defect 3); removing them is
// compatible. In flat exposition each tool says its action's scopes; in
// grouped exposition the actions do.
func TestDiffOverTheWireSeesScopes(t *testing.T) {
	for _, tc := range []struct {
		opts []vurbapp.Option
		path string // of the delete action's auth
	}{
		{nil, "tools/projects_delete/auth"},
		{[]vurbapp.Option{vurbapp.WithExposition(vurbapp.Grouped)}, "actions/projects.delete/auth"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			is := is.New(t)
			open, some, more := scopedServer(t, noScopes, tc.opts...), scopedServer(t, someScopes, tc.opts...), scopedServer(t, moreScopes, tc.opts...)
			code, stdout, stderr := runVurb("diff", "-H", scopedToken, open, some)
			is.Equal(code, 1)
			is.True(!strings.Contains(stderr, "ignoring it"))
			is.True(strings.Contains(stdout, "BREAKING    "+tc.path+": scope-free access removed: callers now need projects:write\n"))

			code, stdout, _ = runVurb("diff", "-H", scopedToken, some, more)
			is.Equal(code, 1)
			is.True(strings.Contains(stdout, "BREAKING    "+tc.path+": callers now also need projects:admin\n"))

			code, stdout, _ = runVurb("diff", "-H", scopedToken, more, open)
			is.Equal(code, 0)
			is.True(strings.Contains(stdout, "compatible  "+tc.path+": no scope needed any more\n"))
		})
	}
}

// A manifest that does not describe the tools the server lists is still
// ignored: here one of the same actions and one more, whose tool the
// server does not list.
func TestLyingManifestIsIgnored(t *testing.T) {
	is := is.New(t)
	liar := scopedApp(someScopes)
	told := scopedApp(someScopes)
	vurbapp.Query(told, "projects.archive", func(context.Context, struct{}) (string, error) { return "", nil })
	lie, err := manifest.Of(told.Model()).Marshal()
	is.NoErr(err)
	vurbapp.Resource(liar, manifest.URI, "vurb-manifest", func(context.Context) (vurbapp.Contents, error) {
		return vurbapp.Contents{Text: string(lie)}, nil
	}).MIMEType("application/json")
	code, stdout, stderr := runVurb("manifest", "-H", scopedToken, serveWithToken(t, liar))
	is.Equal(code, 0)
	is.Equal(stderr, "vurb: the manifest the server publishes at vurb://manifest does not describe the tools it lists; ignoring it\n")
	is.True(!strings.Contains(stdout, `"actions"`))
	is.True(!strings.Contains(stdout, "projects:write"))
}
