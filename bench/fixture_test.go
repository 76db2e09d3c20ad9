package bench

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/go-playground/validator/v10"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
)

// Search is the small input of every hot-path measurement: a required
// string and an optional bounded int.
type Search struct {
	Query string `json:"query" validate:"required" description:"Search text"`
	Limit *int   `json:"limit,omitempty" validate:"omitempty,min=1,max=100" description:"Page size"`
}

// search is the handler every peer runs: it returns the query, so the
// result text of every peer is "golang".
func search(_ context.Context, in Search) (string, error) { return in.Query, nil }

const wantText = "golang"

// searchHandler is search behind a func value, so that the floor's
// "direct call" is a real call, not inlined away.
var searchHandler = search

// searchArgs are the arguments of every call (flat names, every peer).
var searchArgs = json.RawMessage(`{"query":"golang","limit":10}`)

// validate is the floor's (and the hand-written peers') validator: a plain
// validator.New, the library vurb itself builds on.
var validate = validator.New()

// perTool is how many actions each tool holds in the scaling apps: apps of
// 1,000 and 100,000 actions are 10 and 1,000 tools of 100 actions; the app
// of 10 actions is one tool of 10. Flat and grouped exposition share the
// layout, so the only difference between them is the exposition.
const perTool = 100

// layout is the number of tools and actions per tool of an app of n actions.
func layout(n int) (tools, actions int) {
	if n <= perTool {
		return 1, n
	}
	return n / perTool, perTool
}

// defineApp declares an app of n Search actions ("t<i>.a<j>") and returns
// it unbuilt, with the wire name and arguments that call its last action
// (the one declared last: the worst case for any list-like lookup).
func defineApp(n int, exp vurb.Exposition, opts ...vurb.Option) (app *vurb.App, name string, args json.RawMessage) {
	app = vurb.New(append([]vurb.Option{vurb.WithExposition(exp)}, opts...)...)
	tools, actions := layout(n)
	for i := range tools {
		t := app.Tool(fmt.Sprintf("t%d", i))
		for j := range actions {
			vurb.Query(t, fmt.Sprintf("a%d", j), search).Describe("Search the documents")
		}
	}
	lastTool, lastAction := fmt.Sprintf("t%d", tools-1), fmt.Sprintf("a%d", actions-1)
	if exp == vurb.Grouped {
		return app, lastTool, json.RawMessage(`{"action":"` + lastAction + `","query":"golang","limit":10}`)
	}
	return app, lastTool + "_" + lastAction, searchArgs
}

// passThrough is a middleware layer that does nothing but call next.
func passThrough(next vurb.Handler) vurb.Handler {
	return func(ctx context.Context, c *vurb.Call) (*mcp.CallToolResult, error) { return next(ctx, c) }
}

// resultText is the text of a result's first block.
func resultText(res *mcp.CallToolResult) string {
	if res == nil || len(res.Content) == 0 {
		return ""
	}
	if t, ok := res.Content[0].(*mcp.TextContent); ok {
		return t.Text
	}
	return ""
}
