//go:build go1.27

package vurb_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
)

func ExampleApp_Query() {
	app := vurb.New()
	app.Query("weather.get", func(ctx context.Context, in GetWeather) (string, error) {
		return "Sunny in " + in.City, nil
	}).Describe("Current weather for a city")

	res, _ := app.Call(context.Background(), "weather_get", json.RawMessage(`{"city":"Lisbon"}`))
	fmt.Println(res.Content[0].(*mcp.TextContent).Text)
	// Output: Sunny in Lisbon
}

func ExampleTool_Mutation() {
	app := vurb.New()
	projects := app.Tool("projects").Describe("Manage projects")
	projects.Query("list", func(context.Context, struct{}) ([]string, error) { return []string{"apollo"}, nil })
	projects.Mutation("delete", func(_ context.Context, in UserRef) (string, error) { return "deleted", nil })
	for _, tool := range app.Tools() {
		fmt.Println(tool.Name, *tool.Annotations.DestructiveHint)
	}
	// Output:
	// projects_list false
	// projects_delete true
}

func ExampleGroup_Action() {
	app := vurb.New(vurb.WithExposition(vurb.Grouped))
	users := app.Tool("admin").Group("users", "User accounts")
	users.Action("invite", func(_ context.Context, in UserRef) (string, error) { return "invited " + in.UserID, nil })
	res, _ := app.Call(context.Background(), "admin", json.RawMessage(`{"action":"users.invite","user_id":"u7"}`))
	fmt.Println(res.Content[0].(*mcp.TextContent).Text)
	// Output: invited u7
}

func ExampleApp_Prompt() {
	app := vurb.New()
	app.Prompt("code_review", func(_ context.Context, a ReviewArgs) (string, error) {
		return "Review this " + a.Language + " code.", nil
	}).Describe("Review code")

	ctx := context.Background()
	serverT, clientT := mcp.NewInMemoryTransports()
	ss, _ := app.NewServer().Connect(ctx, serverT, nil)
	defer ss.Close()
	cs, _ := mcp.NewClient(&mcp.Implementation{Name: "example"}, nil).Connect(ctx, clientT, nil)
	defer cs.Close()
	res, _ := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "code_review", Arguments: map[string]string{"language": "Go"}})
	fmt.Println(res.Description+":", res.Messages[0].Content.(*mcp.TextContent).Text)
	// Output: Review code: Review this Go code.
}
