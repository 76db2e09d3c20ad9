package vurb_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/vurbtest"
)

// filteredSearchApp tags its actions: notes for anyone, admin ones the
// server's tag filters leave out.
func filteredSearchApp(expo vurb.Exposition) *vurb.App {
	app := vurb.New(vurb.WithToolSearch(), vurb.WithExposition(expo))
	vurb.Query(app, "notes.list", func(context.Context, struct{}) (string, error) { return "notes", nil }).Tags("notes")
	vurb.Mutation(app, "notes.purge", func(context.Context, struct{}) (string, error) { return "PURGED", nil }).Tags("admin")
	vurb.Mutation(app, "admin.purge", func(context.Context, struct{}) (string, error) { return "PURGED", nil }).Tags("admin")
	return app
}

// TestAttackTagFiltersHoldThroughSearch: a tool the server's tag filters
// leave out is neither found nor called through call_tool, on a go-sdk
// server vurb serves, one it is attached to, and a ToolServer of another
// kind; with an include filter, search's own tools are served all the same.
func TestAttackTagFiltersHoldThroughSearch(t *testing.T) {
	for _, expo := range []vurb.Exposition{vurb.Flat, vurb.Grouped} {
		purge := map[vurb.Exposition]string{vurb.Flat: "notes_purge", vurb.Grouped: "notes"}[expo]
		for _, filter := range []vurb.ServeOption{vurb.WithExcludeTags("admin"), vurb.WithIncludeTags("notes")} {
			t.Run(expo.String(), func(t *testing.T) {
				is := is.New(t)
				served := vurbtest.New(t, filteredSearchApp(expo), vurbtest.Serve(filter)).Session()
				server := mcp.NewServer(&mcp.Implementation{Name: "own"}, nil)
				filteredSearchApp(expo).Attach(server, filter)
				attached := connectServer(t, server)
				for _, cs := range []*mcp.ClientSession{served, attached} {
					res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "search_tools", Arguments: map[string]any{"query": "purge notes admin list", "limit": 20}})
					is.NoErr(err)
					text := resultText(res)
					is.True(!strings.Contains(text, "purge")) // never found
					is.True(strings.Contains(text, `"notes_list"`) || expo == vurb.Grouped)
					_, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "call_tool", Arguments: map[string]any{"name": "admin_purge", "arguments": map[string]any{}}})
					is.True(err != nil && strings.Contains(err.Error(), `unknown tool "admin_purge"`))
					args := map[string]any{}
					if expo == vurb.Grouped {
						args["action"] = "purge"
					}
					res, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "call_tool", Arguments: map[string]any{"name": purge, "arguments": args}})
					is.True(err != nil || res.IsError) // the filtered action: unknown, or not among the grouped tool's
					is.True(!strings.Contains(resultText(res), "PURGED"))
				}
				other := &fakeServer{}
				filteredSearchApp(expo).Attach(other, filter)
				text, err := other.call("call_tool", `{"name":"admin_purge","arguments":{}}`)
				is.True(err != nil && strings.Contains(err.Error(), `unknown tool "admin_purge"`))
				is.Equal(text, "")
				text, _ = other.call("search_tools", `{"query":"purge admin"}`)
				is.True(!strings.Contains(text, "purge"))
			})
		}
	}
}

// TestAttachedSearchEndsWithDetach: once detached, the search tools are
// neither listed nor do they carry calls, and the server's own tool is
// not reachable through call_tool while attached.
func TestAttachedSearchEndsWithDetach(t *testing.T) {
	is := is.New(t)
	server := mcp.NewServer(&mcp.Implementation{Name: "own"}, nil)
	server.AddTool(&mcp.Tool{Name: "own_tool", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "OWN"}}}, nil
		})
	detach := filteredSearchApp(vurb.Flat).Attach(server)
	cs := connectServer(t, server)
	is.Equal(listNames(t, cs), []string{"call_tool", "own_tool", "search_tools"})
	_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "call_tool", Arguments: map[string]any{"name": "own_tool"}})
	is.True(err != nil && strings.Contains(err.Error(), `unknown tool "own_tool"`)) // call_tool carries the app's calls only
	detach()
	is.Equal(listNames(t, cs), []string{"own_tool"})
	_, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "call_tool", Arguments: map[string]any{"name": "own_tool"}})
	is.True(err != nil && strings.Contains(err.Error(), `unknown tool "call_tool"`))
}

// TestGroupedSearchListsWhatTheCallerIsShown: in grouped exposition, a
// tool is listed as always-loaded only for an always-load action the
// caller is shown, the caller's manifest says the same, a tool of one
// action is found by the action's words, and a grouped tool whose many
// actions all match takes one place of the limit.
func TestGroupedSearchListsWhatTheCallerIsShown(t *testing.T) {
	is := is.New(t)
	app := vurb.New(vurb.WithToolSearch(), vurb.WithExposition(vurb.Grouped), vurb.WithVisibility(roleClass,
		func(class string, a vurb.ActionInfo) bool { return class == "admin" || a.Key != "admin.purge" }))
	vurb.Mutation(app, "admin.purge", func(context.Context, struct{}) (string, error) { return "purged", nil }).AlwaysLoad()
	vurb.Query(app, "admin.stats", func(context.Context, struct{}) (string, error) { return "stats", nil })
	vurb.Mutation(app, "files.restore_version", func(context.Context, struct{}) (string, error) { return "restored", nil })
	for i := range 60 {
		vurb.Query(app, fmt.Sprintf("reports.report_%d", i), func(context.Context, struct{}) (string, error) { return "r", nil }).
			Describe("A quarterly report on sales")
	}
	vurb.Query(app, "sales.forecast", func(context.Context, struct{}) (string, error) { return "f", nil }).Describe("Forecast next quarter's sales")
	app.PublishManifest()
	viewer := vurbtest.New(t, app, vurbtest.Identity{Token: tokenOfRole("viewer")}).Session()
	admin := vurbtest.New(t, app, vurbtest.Identity{Token: tokenOfRole("admin")}).Session()
	is.Equal(listNames(t, viewer), []string{"call_tool", "search_tools"}) // its view of admin has no always-load action
	is.Equal(listNames(t, admin), []string{"admin", "call_tool", "search_tools"})

	res, err := viewer.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "vurb://manifest"})
	is.NoErr(err) // the viewer's manifest, its listing and all
	is.True(!strings.Contains(res.Contents[0].Text, `"admin.purge"`))

	found := func(cs *mcp.ClientSession, query string, limit int) []string {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "search_tools", Arguments: map[string]any{"query": query, "limit": limit}})
		is.NoErr(err)
		return searchNames(t, resultText(res))
	}
	is.Equal(found(viewer, "restore version", 5), []string{"files"})
	both := found(viewer, "quarterly sales report forecast", 2)
	slices.Sort(both)
	is.Equal(both, []string{"reports", "sales"}) // 60 report actions take one place
}

func tokenOfRole(role string) *auth.TokenInfo {
	return &auth.TokenInfo{UserID: role, Expiration: time.Now().Add(time.Hour), Extra: map[string]any{"role": role}}
}
