package vurb_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"github.com/vurb-go/vurb"
	"golang.org/x/oauth2"
)

// stepUpApp lists projects for anyone and deletes them for a token with
// projects:write.
func stepUpApp(opts ...vurb.Option) *vurb.App {
	app := vurb.New(opts...)
	projects := app.Tool("projects")
	vurb.Query(projects, "list", func(context.Context, noInput) (string, error) { return "p1 p2", nil })
	vurb.Mutation(projects, "delete", func(ctx context.Context, _ noInput) (string, error) {
		return "deleted by " + vurb.CallerFrom(ctx).Subject(), nil
	}).RequireScopes("projects:write")
	return app
}

func stepUpTokens(string) auth.TokenVerifier {
	soon := time.Now().Add(time.Hour)
	return opaqueTokens(map[string]*auth.TokenInfo{
		"reader": {UserID: "alice", Scopes: []string{"projects:read"}, Expiration: soon},
		"writer": {UserID: "alice", Scopes: []string{"projects:read", "projects:write"}, Expiration: soon},
	})
}

// stepUp is a client's OAuth handler that steps up as the MCP
// authorization spec asks: on a 403 insufficient_scope, it reads the
// challenge and asks for the union of the scopes it holds and those the
// challenge names; here the "authorization server" is grants.
type stepUp struct {
	mu         sync.Mutex
	scopes     []string
	grants     map[string]string // sorted, space-joined scopes → token
	challenges []map[string]string
}

func (s *stepUp) TokenSource(context.Context) (oauth2.TokenSource, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return oauth2.StaticTokenSource(&oauth2.Token{AccessToken: s.grants[strings.Join(s.scopes, " ")], TokenType: "Bearer"}), nil
}

func (s *stepUp) Authorize(_ context.Context, _ *http.Request, resp *http.Response) error {
	defer resp.Body.Close()
	challenges, err := oauthex.ParseWWWAuthenticate(resp.Header.Values("WWW-Authenticate"))
	if err != nil || len(challenges) != 1 || challenges[0].Params["error"] != "insufficient_scope" {
		return fmt.Errorf("not a scope challenge: %v %v", challenges, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.challenges = append(s.challenges, challenges[0].Params)
	for _, sc := range strings.Fields(challenges[0].Params["scope"]) {
		if !slices.Contains(s.scopes, sc) {
			s.scopes = append(s.scopes, sc)
		}
	}
	slices.Sort(s.scopes)
	if _, ok := s.grants[strings.Join(s.scopes, " ")]; !ok {
		return fmt.Errorf("the user does not grant %v", s.scopes)
	}
	return nil
}

// TestScopeChallengesAskForWhatIsMissing: with WithScopeChallenges, a scoped
// action stays listed; calling it without the scope is answered 403 with
// a challenge naming every scope it needs, before its handler runs; a
// go-sdk client whose OAuth handler steps up gets a token with them and
// its call goes through, on the same session.
func TestScopeChallengesAskForWhatIsMissing(t *testing.T) {
	for _, grouped := range []bool{false, true} {
		for _, protocol := range []string{"2025-11-25", "2026-07-28"} {
			name := protocol + " flat"
			var opts []vurb.Option
			callName, args := "projects_delete", map[string]any{}
			listName, listArgs := "projects_list", map[string]any{}
			if grouped {
				name = protocol + " grouped"
				opts = append(opts, vurb.WithExposition(vurb.Grouped))
				callName, args = "projects", map[string]any{"action": "delete"}
				listName, listArgs = "projects", map[string]any{"action": "list"}
			}
			t.Run(name, func(t *testing.T) {
				is := is.New(t)
				srv, resource := protectedServer(t, stepUpApp(opts...), stepUpTokens, nil, vurb.WithScopeChallenges())
				metadataURL := srv.URL + "/.well-known/oauth-protected-resource/mcp"

				// What a client reads to step up.
				body := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"` + callName + `","arguments":` + mustJSON(t, args) + `}}`
				res := post(t, resource, map[string]string{"Authorization": "Bearer reader", "Mcp-Protocol-Version": "2026-07-28",
					"Mcp-Method": "tools/call", "Mcp-Name": callName}, body)
				is.Equal(res.StatusCode, http.StatusForbidden)
				is.Equal(res.Header.Get("WWW-Authenticate"), `Bearer error="insufficient_scope", scope="projects:write", resource_metadata="`+
					metadataURL+`", error_description="this operation needs more scopes"`)

				ctx := context.Background()
				user := &stepUp{scopes: []string{"projects:read"}, grants: map[string]string{
					"projects:read": "reader", "projects:read projects:write": "writer"}}
				cs, err := mcp.NewClient(&mcp.Implementation{Name: "step-up"}, nil).Connect(ctx,
					&mcp.StreamableClientTransport{Endpoint: resource, OAuthHandler: user, DisableStandaloneSSE: true},
					&mcp.ClientSessionOptions{ProtocolVersion: protocol})
				is.NoErr(err)
				defer cs.Close()

				tools, err := cs.ListTools(ctx, nil)
				is.NoErr(err)
				is.True(strings.Contains(toolsText(tools.Tools), "delete")) // listed: the model may choose it

				out, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: listName, Arguments: listArgs})
				is.NoErr(err)
				is.Equal(out.Content[0].(*mcp.TextContent).Text, "p1 p2") // the reader's token covers it
				is.Equal(len(user.challenges), 0)

				out, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: callName, Arguments: args})
				is.NoErr(err)
				is.True(!out.IsError)
				is.Equal(out.Content[0].(*mcp.TextContent).Text, "deleted by alice")
				is.Equal(len(user.challenges), 1) // one challenge, with every scope the call needs
				is.Equal(user.challenges[0]["scope"], "projects:write")
				is.Equal(user.challenges[0]["resource_metadata"], metadataURL)

				out, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: callName, Arguments: args})
				is.NoErr(err)
				is.Equal(out.Content[0].(*mcp.TextContent).Text, "deleted by alice")
				is.Equal(len(user.challenges), 1) // the new token is kept
			})
		}
	}
}

// sessionlessMeta is the _meta a 2026-07-28 request carries.
const sessionlessMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`

// TestScopeChallengesWithoutStepUp: a client that cannot step up is refused
// at the HTTP level; a tool the caller's class does not see is unknown,
// never challenged for; prompts and resources are challenged for the app's
// scopes; WithScopeChallenges without WithBearerAuth is a mistake said at once.
func TestScopeChallengesWithoutStepUp(t *testing.T) {
	is := is.New(t)
	hide := vurb.WithVisibility(func(c *vurb.Caller) string { return c.Header.Get("X-Role") },
		func(role string, a vurb.ActionInfo) bool { return role == "admin" || a.Action != "delete" })
	app := stepUpApp(hide)
	_, resource := protectedServer(t, app, stepUpTokens, nil, vurb.WithScopeChallenges())
	call := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"projects_delete","arguments":{},` + sessionlessMeta + `}}`
	header := func(role string) map[string]string {
		return map[string]string{"Authorization": "Bearer reader", "Mcp-Protocol-Version": "2026-07-28",
			"Mcp-Method": "tools/call", "Mcp-Name": "projects_delete", "X-Role": role}
	}
	is.Equal(post(t, resource, header("admin"), call).StatusCode, http.StatusForbidden)
	hidden := post(t, resource, header("guest"), call)
	is.True(hidden.StatusCode != http.StatusForbidden) // answered by the server as an unknown tool
	is.Equal(hidden.Header.Get("WWW-Authenticate"), "")

	ctx := context.Background()
	cs, _, err := bearerClient(ctx, resource, "2025-11-25", "reader")
	is.NoErr(err)
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "projects_delete", Arguments: map[string]any{}})
	is.True(strings.Contains(fmt.Sprint(err), "unknown tool")) // no role: delete is hidden, not challenged for
	out, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "projects_list", Arguments: map[string]any{}})
	is.NoErr(err) // and the session goes on
	is.Equal(out.Content[0].(*mcp.TextContent).Text, "p1 p2")
	cs.Close()

	scoped := vurb.New().RequireScopes("docs:read")
	vurb.Prompt(scoped, "greet", func(context.Context, struct{}) (string, error) { return "hi", nil })
	vurb.Resource(scoped, "mem://readme", "readme", func(context.Context) (vurb.Contents, error) { return vurb.Contents{Text: "r"}, nil })
	_, resource = protectedServer(t, scoped, stepUpTokens, nil, vurb.WithScopeChallenges())
	for _, body := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"greet",` + sessionlessMeta + `}}`,
		`{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"mem://readme",` + sessionlessMeta + `}}`,
	} {
		res := post(t, resource, map[string]string{"Authorization": "Bearer reader", "Mcp-Protocol-Version": "2026-07-28"}, body)
		is.Equal(res.StatusCode, http.StatusForbidden)
		is.True(strings.Contains(res.Header.Get("WWW-Authenticate"), `scope="docs:read"`))
	}

	defer func() {
		is.True(strings.Contains(fmt.Sprint(recover()), "WithScopeChallenges needs WithBearerAuth"))
	}()
	stepUpApp().HTTPHandler(vurb.WithScopeChallenges())
}
