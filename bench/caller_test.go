package bench

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"github.com/vurb-go/vurb"
)

// BenchmarkCallerViews is one sessionless (2026-07-28) tools/call through
// the HTTP handler, in memory (no sockets), in an app of 1,000 actions:
// plain; with the verified token read into the call (every served call
// does it); with an action scope to check; and with WithVisibility, whose
// class function and view lookup run on every call; and behind WithBearerAuth
// with an action scope, without and with WithScopeChallenges, whose challenger
// reads each request's body before the handler does. The same request in
// each, interleaved in one run.
func BenchmarkCallerViews(b *testing.B) {
	token := &auth.TokenInfo{UserID: "alice", Scopes: []string{"read"}, Expiration: time.Now().Add(time.Hour)}
	modes := []struct {
		name               string
		scopes             bool
		opts               []vurb.Option
		bearer, challenges bool
	}{
		{"plain", false, nil, false, false},
		{"scope", true, nil, false, false},
		{"visibility", false, []vurb.Option{vurb.WithVisibility(
			func(c *vurb.Caller) string { return c.Header.Get("X-Role") },
			func(role string, a vurb.ActionInfo) bool { return role == "reader" || !a.Annotations.ReadOnlyHint },
		)}, false, false},
		{"bearer", true, nil, true, false},
		{"bearer+challenges", true, nil, true, true},
	}
	for _, m := range modes {
		b.Run("views="+m.name, func(b *testing.B) {
			app, name, args := defineApp(1_000, vurb.Flat, m.opts...)
			if m.scopes {
				app.RequireScopes("read")
			}
			verify := func(context.Context, string, *http.Request) (*auth.TokenInfo, error) { return token, nil }
			h := auth.RequireBearerToken(verify, nil)(app.HTTPHandler(vurb.WithJSONResponse()))
			if m.bearer {
				opts := []vurb.ServeOption{vurb.WithJSONResponse(), vurb.WithBearerAuth(verify,
					&oauthex.ProtectedResourceMetadata{Resource: "http://example.com/"}, nil)}
				if m.challenges {
					opts = append(opts, vurb.WithScopeChallenges())
				}
				h = app.HTTPHandler(opts...)
			}
			body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + name + `","arguments":` + string(args) +
				`,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
			serve := func() string {
				r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
				r.Header.Set("Content-Type", "application/json")
				r.Header.Set("Accept", "application/json, text/event-stream")
				r.Header.Set("Mcp-Protocol-Version", "2026-07-28")
				r.Header.Set("Mcp-Method", "tools/call")
				r.Header.Set("Mcp-Name", name)
				r.Header.Set("X-Role", "reader")
				r.Header.Set("Authorization", "Bearer t")
				w := httptest.NewRecorder()
				h.ServeHTTP(w, r)
				return w.Body.String()
			}
			if got := serve(); !strings.Contains(got, `"text":"golang"`) {
				b.Fatalf("unexpected answer: %s", got)
			}
			b.ReportAllocs()
			for b.Loop() {
				serve()
			}
		})
	}
}
