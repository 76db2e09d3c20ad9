package vurb_test

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
)

func ExamplePerCaller() {
	app := vurb.New()
	vurb.Query(app, "reports.build", func(context.Context, struct{}) (string, error) {
		return "report ready", nil
	}).RateLimit(vurb.PerCaller(2, time.Minute))

	alice := vurb.ContextWithCaller(context.Background(), &vurb.Caller{Token: &auth.TokenInfo{UserID: "alice"}})
	bob := vurb.ContextWithCaller(context.Background(), &vurb.Caller{Token: &auth.TokenInfo{UserID: "bob"}})
	for _, ctx := range []context.Context{alice, alice, alice, bob} {
		res, _ := app.Call(ctx, "reports_build", nil)
		fmt.Println(res.Content[0].(*mcp.TextContent).Text)
	}
	// Output:
	// report ready
	// report ready
	// [reports_build] rate limit reached (2 calls per minute); retry in 30s, not sooner
	// report ready
}

func ExampleActionDef_MaxOutput() {
	app := vurb.New()
	vurb.Query(app, "logs.tail", func(context.Context, struct{}) (string, error) {
		return strings.Repeat("line\n", 100), nil
	}).MaxOutput(20)

	res, _ := app.Call(context.Background(), "logs_tail", nil)
	for _, c := range res.Content {
		fmt.Printf("%q\n", c.(*mcp.TextContent).Text)
	}
	// Output:
	// "line\nline\nline\nline\n"
	// "[logs_tail] output truncated to 20 of 500 bytes; narrow the request (a filter, fewer fields, a smaller page) to get the rest"
}
