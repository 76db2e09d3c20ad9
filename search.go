package vurb

import (
	"cmp"
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/engine"
	"github.com/vurb-go/vurb/internal/search"
)

// WithToolSearch serves tool search: tools/list lists two tools,
// search_tools, which finds the app's tools by what the model wants to do,
// and call_tool, which calls one of them by name, plus the actions marked
// AlwaysLoad. Every tool stays callable by its own name, and the list
// never changes as the model searches, so a client's prompt cache holds.
//
// A call through call_tool is the call of the tool it names, on every
// path (HTTP, the fast lane, sessions, tasks, stdio, App.Call): scopes
// and their challenges, rate and concurrency limits, tasks, input
// requests, observers and errors see the named tool and its arguments. A
// search finds only what the caller could list (visibility, scopes, tag
// filters), each tool as tools/list would list it without search.
//
// Turn it on when the tool list costs more than a few percent of the
// model's context (a few hundred tools); see docs/tool-search.md.
func WithToolSearch() Option { return func(c *config) { c.search = buildSearch } }

// buildSearch builds the index of tool search; only WithToolSearch refers
// to it, so an app without search links none.
func buildSearch(docs []search.Doc) engine.Index { return search.Build(docs) }

// AlwaysLoad lists the action's tool under WithToolSearch, beside the
// search tools, marked "anthropic/alwaysLoad" in its _meta: for the few
// tools nearly every conversation calls. In grouped exposition the whole
// tool that holds it is listed. Without tool search it changes nothing.
func (a *ActionDef) AlwaysLoad() *ActionDef {
	a.mustBeMutable()
	a.alwaysLoad = true
	return a
}

// SearchHint adds words that tool search matches for the action and no
// listing shows: the words users say for what it does ("refund reverse
// chargeback") when its name and description use others.
func (a *ActionDef) SearchHint(words string) *ActionDef {
	a.mustBeMutable()
	a.hint += " " + words
	return a
}

// searchInput is search_tools' input.
type searchInput struct {
	Query string `json:"query" validate:"required,max=1000" description:"What you want to do, in a few plain words"`
	Limit int    `json:"limit,omitempty" validate:"omitempty,min=1,max=20" description:"How many tools to return: 5 unless given, at most 20"`
}

// callInput is call_tool's input. Every path reads it before this type
// does (engine.Plan.Resolve); the type gives call_tool its schema and the
// errors of a call that is not one.
type callInput struct {
	Name      string         `json:"name" validate:"required" description:"The tool's name, as search_tools gave it"`
	Arguments map[string]any `json:"arguments,omitempty" description:"The tool's arguments, as its input schema says"`
}

// searchResult is what search_tools answers.
type searchResult struct {
	Tools []*mcp.Tool `json:"tools"`
}

// defaultSearchLimit is how many tools search_tools returns when not told.
const defaultSearchLimit = 5

// addSearchTools defines tool search's two tools; after it, their names
// are reserved (App.Tool).
func (a *App) addSearchTools() {
	Query(a, engine.SearchToolsName, a.searchTools).
		Describe("Find this server's tools by what you want to do, in plain words (\"refund a payment\"). " +
			"Returns the best matches first, each with its name, description and input schema. " +
			"Call one with call_tool, or by its name if it is listed. If none fits, search again with other words.").
		finder()
	Action(a, engine.CallToolName, a.callTool).
		Describe("Call a tool that search_tools found: its name, and its arguments as its input schema says.").
		finder()
	a.searchReserved = true
}

// finder marks the action as one of tool search's own.
func (a *ActionDef) finder() { a.isFinder = true }

// searchTools is search_tools' handler: the caller's view of the best
// matches, in the app's result format.
func (a *App) searchTools(ctx context.Context, in searchInput) (*mcp.CallToolResult, error) {
	var o *engine.Origin
	if c := engine.CallFrom(ctx); c != nil {
		o = c.Origin()
	}
	tools := a.built().Search(in.Query, cmp.Or(in.Limit, defaultSearchLimit), o)
	return encodeResult(searchResult{Tools: tools}, true, a.cfg.resultFormat)
}

// callTool answers what no path unwraps: a call_tool that names
// call_tool.
func (a *App) callTool(context.Context, callInput) (*mcp.CallToolResult, error) {
	return Error("call_tool calls another tool: give that tool's name, not call_tool's"), nil
}
