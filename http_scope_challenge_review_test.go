package vurb_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
)

// TestScopeChallengesJudgeTheCallersOwnClass: the challenger decides
// whether a caller sees an action with the caller its handlers see, client
// name and session included. A kiosk client, whose class does not see
// projects_delete, is told the tool is unknown, as without WithScopeChallenges;
// it is not challenged for the hidden tool's scopes (a 403 whose challenge
// names them, and shows the tool exists). Another client, whose class sees it, is
// challenged. Over a session (the client named at initialize) and
// sessionless (named in each request's _meta).
func TestScopeChallengesJudgeTheCallersOwnClass(t *testing.T) {
	byClient := vurb.WithVisibility(func(c *vurb.Caller) string {
		if c.Client != nil && c.Client.Name == "kiosk" {
			return "kiosk"
		}
		return ""
	}, func(class string, a vurb.ActionInfo) bool { return class != "kiosk" || a.Action != "delete" })
	_, resource := protectedServer(t, stepUpApp(byClient), stepUpTokens, nil, vurb.WithScopeChallenges())
	for _, protocol := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(protocol, func(t *testing.T) {
			ctx := context.Background()
			call := func(client string) error {
				t.Helper()
				is := is.New(t)
				bt := &bearerTransport{base: http.DefaultTransport}
				bt.set("reader")
				cs, err := mcp.NewClient(&mcp.Implementation{Name: client, Version: "1"}, nil).Connect(ctx,
					&mcp.StreamableClientTransport{Endpoint: resource, HTTPClient: &http.Client{Transport: bt}, DisableStandaloneSSE: true},
					&mcp.ClientSessionOptions{ProtocolVersion: protocol})
				is.NoErr(err)
				defer cs.Close()
				_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "projects_delete", Arguments: map[string]any{}})
				return err
			}
			is := is.New(t)
			kiosk := fmt.Sprint(call("kiosk"))
			is.True(strings.Contains(kiosk, "unknown tool"))                 // hidden from kiosks: unknown
			is.True(!strings.Contains(kiosk, "Forbidden"))                   // not challenged for
			is.True(strings.Contains(fmt.Sprint(call("desk")), "Forbidden")) // seen by others: challenged
		})
	}
}

// TestScopeChallengesWithoutABodyLimit: WithMaxBodyBytes(-1) lifts the limit
// on bodies (the go-sdk's negative MaxRequestBodyBytes); calls are
// challenged all the same.
func TestScopeChallengesWithoutABodyLimit(t *testing.T) {
	is := is.New(t)
	_, resource := protectedServer(t, stepUpApp(), stepUpTokens, nil, vurb.WithScopeChallenges(), vurb.WithMaxBodyBytes(-1))
	call := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"projects_delete","arguments":{},` + sessionlessMeta + `}}`
	res := post(t, resource, map[string]string{"Authorization": "Bearer reader", "Mcp-Protocol-Version": "2026-07-28",
		"Mcp-Method": "tools/call", "Mcp-Name": "projects_delete"}, call)
	is.Equal(res.StatusCode, http.StatusForbidden)
	is.True(strings.Contains(res.Header.Get("WWW-Authenticate"), `scope="projects:write"`))
}

// TestScopeChallengesManifestListsWhatToolsListLists: under
// WithScopeChallenges a scoped action stays in the tools/list of a caller
// whose token lacks its scopes, and so in the manifest that caller reads,
// which says what its tools/list does.
func TestScopeChallengesManifestListsWhatToolsListLists(t *testing.T) {
	is := is.New(t)
	app := stepUpApp()
	app.PublishManifest(vurb.WithScopeChallenges())
	_, resource := protectedServer(t, app, stepUpTokens, nil, vurb.WithScopeChallenges())
	ctx := context.Background()
	cs, _, err := bearerClient(ctx, resource, "2025-11-25", "reader")
	is.NoErr(err)
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	is.NoErr(err)
	is.True(strings.Contains(toolsText(tools.Tools), "projects_delete"))
	res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "vurb://manifest"})
	is.NoErr(err)
	is.True(strings.Contains(res.Contents[0].Text, "projects_delete")) // as in its tools/list
}

// TestScopeChallengesReadNamesAsTheServerDoes: the challenger reads a
// request's members by their exact names, as the go-sdk does, where
// encoding/json would also take "Name" for "name": a call of projects_list
// is answered, whatever else it carries, and a call of projects_delete is
// challenged.
func TestScopeChallengesReadNamesAsTheServerDoes(t *testing.T) {
	is := is.New(t)
	_, resource := protectedServer(t, stepUpApp(), stepUpTokens, nil, vurb.WithScopeChallenges())
	call := func(name, params string) *http.Response {
		return post(t, resource, map[string]string{"Authorization": "Bearer reader", "Mcp-Protocol-Version": "2026-07-28",
			"Mcp-Method": "tools/call", "Mcp-Name": name},
			`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{`+params+`"arguments":{},`+sessionlessMeta+`}}`)
	}
	is.Equal(call("projects_list", `"name":"projects_list","Name":"projects_delete",`).StatusCode, http.StatusOK)
	is.Equal(call("projects_delete", `"name":"projects_delete","NAME":"projects_list",`).StatusCode, http.StatusForbidden)
}

// TestScopeChallengesJudgeTheCallersCapabilities: a class read from the
// client's capabilities is the one the handlers read, sessionless (from
// the request's _meta) as on a session: a client that takes forms, whose
// class sees projects_delete, is challenged for it; one that does not is
// told the tool is unknown.
func TestScopeChallengesJudgeTheCallersCapabilities(t *testing.T) {
	byForms := vurb.WithVisibility(func(c *vurb.Caller) string {
		if c.Capabilities != nil && c.Capabilities.Elicitation != nil {
			return "forms"
		}
		return "plain"
	}, func(class string, a vurb.ActionInfo) bool { return class == "forms" || a.Action != "delete" })
	_, resource := protectedServer(t, stepUpApp(byForms), stepUpTokens, nil, vurb.WithScopeChallenges())
	for _, protocol := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(protocol, func(t *testing.T) {
			ctx := context.Background()
			call := func(forms bool) error {
				t.Helper()
				is := is.New(t)
				bt := &bearerTransport{base: http.DefaultTransport}
				bt.set("reader")
				var opts *mcp.ClientOptions
				if forms {
					opts = &mcp.ClientOptions{ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
						return &mcp.ElicitResult{Action: "decline"}, nil
					}}
				}
				cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, opts).Connect(ctx,
					&mcp.StreamableClientTransport{Endpoint: resource, HTTPClient: &http.Client{Transport: bt}, DisableStandaloneSSE: true},
					&mcp.ClientSessionOptions{ProtocolVersion: protocol})
				is.NoErr(err)
				defer cs.Close()
				_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "projects_delete", Arguments: map[string]any{}})
				return err
			}
			is := is.New(t)
			is.True(strings.Contains(fmt.Sprint(call(true)), "Forbidden")) // its class sees delete: challenged
			plain := fmt.Sprint(call(false))
			is.True(strings.Contains(plain, "unknown tool")) // hidden: unknown
			is.True(!strings.Contains(plain, "Forbidden"))
		})
	}
}
