package vurb_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
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
	"github.com/vurb-go/vurb/toon"
	"github.com/vurb-go/vurb/vurbtest"
)

// searchApp is a small app of a few domains, served with tool search or
// without it; one action is always loaded.
func searchApp(expo vurb.Exposition, opts ...vurb.Option) *vurb.App {
	app := vurb.New(append([]vurb.Option{vurb.WithLogger(slog.New(slog.DiscardHandler)), vurb.WithExposition(expo)}, opts...)...)
	type invoiceID struct {
		ID string `json:"id" validate:"required" description:"The invoice's id"`
	}
	type refund struct {
		Payment string `json:"payment" validate:"required" description:"The payment to refund"`
		Cents   int    `json:"cents" validate:"min=1" description:"How much to give back, in cents"`
	}
	vurb.Query(app, "invoices.list", func(context.Context, struct{}) (string, error) { return "2 invoices", nil }).
		Describe("List the invoices sent to customers")
	vurb.Query(app, "invoices.list_items", func(context.Context, invoiceID) (string, error) { return "3 items", nil }).
		Describe("List the line items of one invoice")
	vurb.Mutation(app, "invoices.void", func(context.Context, invoiceID) (string, error) { return "voided", nil }).
		Describe("Void an invoice that was sent by mistake")
	vurb.Mutation(app, "payments.refund", func(_ context.Context, in refund) (string, error) { return "refunded " + in.Payment, nil }).
		Describe("Refund part or all of a payment").SearchHint("give money back reimburse")
	vurb.Query(app, "files.search", func(context.Context, struct{}) (string, error) { return "found", nil }).
		Describe("Search files by their content").AlwaysLoad()
	vurb.Mutation(app, "files.delete", func(context.Context, struct{}) (string, error) { return "deleted", nil }).
		Describe("Delete a file")
	return app
}

func TestToolSearchListsTheSearchToolsAndTheAlwaysLoaded(t *testing.T) {
	for _, expo := range []vurb.Exposition{vurb.Flat, vurb.Grouped} {
		t.Run(expo.String(), func(t *testing.T) {
			is := is.New(t)
			cs := connect(t, searchApp(expo, vurb.WithToolSearch()), nil)
			res, err := cs.ListTools(context.Background(), nil)
			is.NoErr(err)
			var names []string
			for _, tool := range res.Tools {
				names = append(names, tool.Name)
				loaded, _ := tool.Meta["anthropic/alwaysLoad"].(bool)
				is.Equal(loaded, tool.Name == "files_search" || tool.Name == "files") // the always-loaded action's tool, and only it
			}
			want := []string{"call_tool", "files_search", "search_tools"}
			if expo == vurb.Grouped {
				want = []string{"call_tool", "files", "search_tools"}
			}
			is.Equal(names, want)
		})
	}
}

// TestSearchFindsToolsAsListedWithoutSearch: each tool search_tools
// returns is, byte for byte, the tool tools/list lists without search.
func TestSearchFindsToolsAsListedWithoutSearch(t *testing.T) {
	for _, expo := range []vurb.Exposition{vurb.Flat, vurb.Grouped} {
		t.Run(expo.String(), func(t *testing.T) {
			is := is.New(t)
			plain := map[string]any{}
			for _, tool := range searchApp(expo).Tools() {
				data, _ := json.Marshal(tool)
				var v any
				is.NoErr(json.Unmarshal(data, &v))
				plain[tool.Name] = v
			}
			cs := connect(t, searchApp(expo, vurb.WithToolSearch()), nil)
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "search_tools", Arguments: map[string]any{"query": "give the customer their money back"}})
			is.NoErr(err)
			is.True(!res.IsError)
			var found struct {
				Tools []json.RawMessage `json:"tools"`
			}
			data, _ := json.Marshal(res.StructuredContent)
			is.NoErr(json.Unmarshal(data, &found))
			is.True(len(found.Tools) > 0)
			var first struct{ Name string }
			is.NoErr(json.Unmarshal(found.Tools[0], &first))
			want := map[vurb.Exposition]string{vurb.Flat: "payments_refund", vurb.Grouped: "payments"}[expo]
			is.Equal(first.Name, want) // the hint's words found it
			for _, raw := range found.Tools {
				var tool map[string]any
				is.NoErr(json.Unmarshal(raw, &tool))
				is.Equal(tool, plain[tool["name"].(string)])
			}
		})
	}
}

// TestCallToolIsTheCallItCarries: through every path, call_tool answers
// what a direct call answers, errors word for word.
func TestCallToolIsTheCallItCarries(t *testing.T) {
	var purges sync.Map
	app := attackApp(&purges, vurb.WithToolSearch())
	var runs atomic.Int64
	vurb.Query(app, "echo", func(_ context.Context, in struct {
		Word string `json:"word" validate:"required"`
	}) (string, error) {
		runs.Add(1)
		return "echo " + in.Word, nil
	})
	type region struct {
		Region string `json:"region" validate:"required"`
	}
	vurb.Query(app, "geo.where", func(_ context.Context, in region) (string, error) { return "in " + in.Region, nil }).
		Header("region", "Region") // its client mirrors region into Mcp-Param-Region: not through call_tool
	cases := []struct{ tool, args string }{
		{"echo", `{"word":"hi"}`},
		{"echo", `{}`},
		{"echo", `{"word":1}`},
		{"echo", `{"word":"hi","extra":true}`},
		{"nope", `{}`},
		{"notes_list", `{}`},
	}
	for _, p := range attackPaths(t, app) {
		t.Run(p.name, func(t *testing.T) {
			for _, c := range cases {
				is := is.NewRelaxed(t)
				text, isErr, err := p.call(t, "admin-token", c.tool, c.args)
				wtext, wisErr, werr := p.call(t, "admin-token", "call_tool", `{"name":"`+c.tool+`","arguments":`+c.args+`}`)
				is.Equal(wtext, text)
				is.Equal(wisErr, isErr)
				is.Equal(errText(werr), errText(err))
			}
			text, isErr, err := p.call(t, "admin-token", "call_tool", `{"name":"geo_where","arguments":{"region":"eu"}}`)
			is := is.New(t)
			is.NoErr(err)
			is.True(!isErr)
			is.Equal(text, "in eu")
		})
	}
}

// searchNames reads the names of the tools a search_tools answer's text
// lists (the app's results are JSON).
func searchNames(t *testing.T, text string) []string {
	t.Helper()
	var found struct {
		Tools []struct{ Name string } `json:"tools"`
	}
	if err := json.Unmarshal([]byte(text), &found); err != nil {
		t.Fatalf("%q: %v", text, err)
	}
	names := []string{}
	for _, tool := range found.Tools {
		names = append(names, tool.Name)
	}
	return names
}

// TestAttackSearchFindsOnlyWhatTheCallerLists: on every path, callers ×
// queries: no search finds an action the caller's list leaves out, and
// call_tool reaches none (it answers as for a tool that does not exist).
func TestAttackSearchFindsOnlyWhatTheCallerLists(t *testing.T) {
	var purges sync.Map
	app := attackApp(&purges, vurb.WithToolSearch())
	callers := []struct {
		token  string
		hidden []string // actions its list leaves out
	}{
		{"viewer-token", []string{"admin_purge", "notes_wipe"}},
		{"bare-token", []string{"admin_purge", "notes_wipe"}},
		{"admin-token", nil},
	}
	queries := []string{"purge", "admin purge", "admin_purge", "wipe the notes", "notes", "list", "delete everything", "notes_wipe admin_purge"}
	for _, p := range attackPaths(t, app) {
		t.Run(p.name, func(t *testing.T) {
			for _, c := range callers {
				found := map[string]bool{}
				for _, q := range queries {
					args, _ := json.Marshal(map[string]any{"query": q, "limit": 20})
					text, isErr, err := p.call(t, c.token, "search_tools", string(args))
					if err != nil || isErr {
						t.Fatalf("%s %q: %v %s", c.token, q, err, text)
					}
					for _, name := range searchNames(t, text) {
						found[name] = true
						if slices.Contains(c.hidden, name) {
							t.Errorf("%s searching %q found %s, which its list hides", c.token, q, name)
						}
					}
				}
				for _, name := range c.hidden {
					_, _, direct := p.call(t, c.token, name, `{}`)
					_, _, carried := p.call(t, c.token, "call_tool", `{"name":"`+name+`","arguments":{}}`)
					_, _, never := p.call(t, c.token, "call_tool", `{"name":"never_was","arguments":{}}`)
					if name == "notes_wipe" { // scopes do not hide a call: the pipeline names them
						if direct == nil || carried == nil || direct.Error() != carried.Error() {
							text, _, _ := p.call(t, c.token, "call_tool", `{"name":"`+name+`","arguments":{}}`)
							dtext, _, _ := p.call(t, c.token, name, `{}`)
							if text != dtext {
								t.Errorf("%s: call_tool %s answered %q, a direct call %q", c.token, name, text, dtext)
							}
						}
						continue
					}
					if carried == nil || !strings.Contains(carried.Error(), `unknown tool "`+name+`"`) ||
						strings.ReplaceAll(never.Error(), "never_was", name) != carried.Error() || direct.Error() != carried.Error() {
						t.Errorf("%s: call_tool %s: %v; direct: %v; unknown: %v", c.token, name, carried, direct, never)
					}
				}
				if c.token == "admin-token" && !found["admin_purge"] {
					t.Errorf("the admin's searches never found admin_purge: %v", found)
				}
			}
		})
	}
	if n, ok := purges.Load("viewer"); ok {
		t.Fatalf("a viewer ran the admin-only action %d times", n.(*atomic.Int64).Load())
	}
}

// TestCallToolCountsAsTheCallItCarries: on every path a call through
// call_tool spends the named action's rate limit, runs the app's
// middleware and is observed once, as that action's call: call_tool
// itself is never seen.
func TestCallToolCountsAsTheCallItCarries(t *testing.T) {
	newApp := func(seen *sync.Map) *vurb.App {
		var purges sync.Map
		app := attackApp(&purges, vurb.WithToolSearch(), vurb.WithObserver(func(_ context.Context, e observe.Event) {
			if e.Kind == observe.CallStarted {
				n, _ := seen.LoadOrStore("observed "+e.Name, new(atomic.Int64))
				n.(*atomic.Int64).Add(1)
			}
		}))
		app.Use(func(next vurb.Handler) vurb.Handler {
			return func(ctx context.Context, c *vurb.Call) (*mcp.CallToolResult, error) {
				n, _ := seen.LoadOrStore("middleware "+c.Name, new(atomic.Int64))
				n.(*atomic.Int64).Add(1)
				return next(ctx, c)
			}
		})
		vurb.Query(app, "quota", func(context.Context, struct{}) (string, error) { return "ok", nil }).
			RateLimit(vurb.PerCaller(1, time.Hour))
		return app
	}
	for i, name := range []string{"fast lane", "go-sdk stateless", "go-sdk session", "in-memory (stdio's server)", "in-process"} {
		t.Run(name, func(t *testing.T) {
			is := is.New(t)
			var seen sync.Map
			p := attackPaths(t, newApp(&seen))[i]
			is.Equal(p.name, name)
			text, isErr, err := p.call(t, "admin-token", "call_tool", `{"name":"quota","arguments":{}}`)
			is.NoErr(err)
			is.Equal(text, "ok")
			is.True(!isErr)
			text, isErr, err = p.call(t, "admin-token", "quota", `{}`)
			is.NoErr(err)
			is.True(isErr) // the one call an hour went through call_tool
			is.True(strings.Contains(text, "rate"))
			carried, _, _ := p.call(t, "admin-token", "call_tool", `{"name":"quota","arguments":{}}`)
			is.Equal(carried, text) // refused in the same words
			count := func(key string) int64 {
				n, ok := seen.Load(key)
				if !ok {
					return 0
				}
				return n.(*atomic.Int64).Load()
			}
			is.Equal(count("observed quota"), int64(3))
			is.Equal(count("observed call_tool"), int64(0))
			is.Equal(count("middleware call_tool"), int64(0))
		})
	}
}

// TestAttackCallToolAtTheHTTPEdge: the HTTP edge reads a call_tool as the
// call it carries. A task-only action runs as a task through it and a
// hidden one is unknown without leaving a task; a scope challenge names
// the carried action's scopes; an Mcp-Name header that names neither
// call_tool nor nothing is refused, and the carried call never runs.
func TestAttackCallToolAtTheHTTPEdge(t *testing.T) {
	is := is.New(t)
	var purges sync.Map
	mem := store.NewMemoryTasks(0)
	app := attackApp(&purges, vurb.WithToolSearch(), vurb.WithTasks(vurb.TaskConfig{Store: mem, TTL: time.Minute}))
	vurb.Mutation(app, "admin.reindex", func(context.Context, struct{}) (string, error) { return "reindexed", nil }).Task(vurb.WithTaskRequired())
	vurb.Mutation(app, "notes.reindex", func(context.Context, struct{}) (string, error) { return "reindexed", nil }).Task(vurb.WithTaskRequired())
	verify := func(string) auth.TokenVerifier { return opaqueTokens(attackTokens) }
	srv, _ := protectedServer(t, app, verify, nil)
	const tasksMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}`
	carry := func(token, header, tool string) attackAnswer {
		out, _, err := postJSONRPC(srv.URL, token, "2026-07-28", "tools/call", header,
			`{"name":"call_tool","arguments":{"name":"`+tool+`","arguments":{}},`+tasksMeta+`}`)
		is.NoErr(err)
		return out
	}
	out := carry("viewer-token", "call_tool", "admin_reindex")
	is.True(out.Error != nil && strings.Contains(out.Error.Message, `unknown tool "admin_reindex"`))
	is.Equal(mem.Len(), 0)
	out = carry("viewer-token", "call_tool", "notes_reindex")
	is.True(out.Error == nil)
	is.True(strings.Contains(string(out.Result), `"task"`)) // the tasks front took the carried call
	is.Equal(mem.Len(), 1)

	out = carry("admin-token", "admin_purge", "admin_purge") // the header names the carried tool, not the one called
	is.True(out.Error != nil && strings.Contains(out.Error.Message, "Mcp-Name"))
	out = carry("admin-token", "notes_list", "admin_purge")
	is.True(out.Error != nil && strings.Contains(out.Error.Message, "Mcp-Name"))
	_, ran := purges.Load("admin")
	is.True(!ran)

	challenged := stepUpApp(vurb.WithToolSearch())
	_, resource := protectedServer(t, challenged, stepUpTokens, nil, vurb.WithScopeChallenges())
	for _, version := range []string{"2026-07-28", ""} {
		header := map[string]string{"Authorization": "Bearer reader"}
		meta := sessionlessMeta
		if version != "" {
			header["Mcp-Protocol-Version"], header["Mcp-Method"], header["Mcp-Name"] = version, "tools/call", "call_tool"
		} else {
			meta = `"_meta":{}`
		}
		res := post(t, resource, header, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"call_tool","arguments":{"name":"projects_delete","arguments":{}},`+meta+`}}`)
		is.Equal(res.StatusCode, http.StatusForbidden)
		is.True(strings.Contains(res.Header.Get("WWW-Authenticate"), `scope="projects:write"`))
	}
}

// TestSearchAnswersInTheAppsResultFormat: the text a model reads of a
// search is written in the app's result format (TOONResults: TOON, or
// JSON where it is shorter), and says what the structured content says.
func TestSearchAnswersInTheAppsResultFormat(t *testing.T) {
	is := is.New(t)
	app := searchApp(vurb.Flat, vurb.WithToolSearch(), vurb.WithResultFormat(vurb.TOONResults()))
	for _, limit := range []int{1, 3} {
		res, err := app.Call(context.Background(), "search_tools", json.RawMessage(fmt.Sprintf(`{"query":"void or list an invoice","limit":%d}`, limit)))
		is.NoErr(err)
		text := res.Content[0].(*mcp.TextContent).Text
		data, _ := json.Marshal(res.StructuredContent)
		var fromText, structured any
		is.NoErr(json.Unmarshal(data, &structured))
		is.True(len(text) <= len(data))
		if text != string(data) {
			is.NoErr(toon.Unmarshal([]byte(text), &fromText))
		} else {
			is.NoErr(json.Unmarshal([]byte(text), &fromText))
		}
		is.Equal(fromText, structured)
		is.Equal(len(structured.(map[string]any)["tools"].([]any)), limit)
	}
}

// TestAttackAlwaysLoadedToolsFollowTheCallersList: an always-loaded
// action the caller's list hides is not listed to it.
func TestAttackAlwaysLoadedToolsFollowTheCallersList(t *testing.T) {
	is := is.New(t)
	app := vurb.New(vurb.WithToolSearch(), vurb.WithVisibility(roleClass, func(class string, a vurb.ActionInfo) bool {
		return class == "admin" || a.Tool != "admin"
	}))
	vurb.Mutation(app, "admin.purge", func(context.Context, struct{}) (string, error) { return "purged", nil }).AlwaysLoad()
	vurb.Query(app, "notes.list", func(context.Context, struct{}) (string, error) { return "notes", nil }).AlwaysLoad()
	for role, want := range map[string][]string{
		"viewer": {"call_tool", "notes_list", "search_tools"},
		"admin":  {"admin_purge", "call_tool", "notes_list", "search_tools"},
	} {
		cs := vurbtest.New(t, app, vurbtest.Identity{Token: tokenOfRole(role)}).Session()
		is.Equal(listNames(t, cs), want)
	}
}

// TestToolSearchThroughTheGoSDKClientOverHTTP: the go-sdk's own client,
// over streamable HTTP, on both protocol generations (2026-07-28 sends
// the Mcp-Name header of call_tool, which the front reads as the tool
// carried): it lists the search tools, finds a tool and calls it
// through call_tool.
func TestToolSearchThroughTheGoSDKClientOverHTTP(t *testing.T) {
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(version, func(t *testing.T) {
			is := is.New(t)
			srv := httptest.NewServer(searchApp(vurb.Flat, vurb.WithToolSearch()).HTTPHandler())
			t.Cleanup(srv.Close)
			ctx := context.Background()
			cs, _, err := bearerClient(ctx, srv.URL, version, "")
			is.NoErr(err)
			t.Cleanup(func() { cs.Close() })
			is.Equal(listNames(t, cs), []string{"call_tool", "files_search", "search_tools"})
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search_tools", Arguments: map[string]any{"query": "reimburse a payment"}})
			is.NoErr(err)
			is.Equal(searchNames(t, resultText(res))[0], "payments_refund")
			res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "call_tool",
				Arguments: map[string]any{"name": "payments_refund", "arguments": map[string]any{"payment": "py_1", "cents": 200}}})
			is.NoErr(err)
			is.Equal(resultText(res), "refunded py_1")
			res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "call_tool",
				Arguments: map[string]any{"name": "payments_refund", "arguments": map[string]any{"payment": "py_1"}}})
			is.NoErr(err)
			is.True(res.IsError) // the carried tool's validation, in its words
			is.True(strings.Contains(resultText(res), "cents"))
		})
	}
}
