package vurb_test

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
)

// One struct is both the schema the model reads and the rules the server
// enforces.
type GetWeather struct {
	City  string `json:"city" validate:"required" description:"City name"`
	Units string `json:"units,omitempty" validate:"omitempty,oneof=metric imperial" description:"Unit system"`
}

func ExampleQuery() {
	app := vurb.New()
	vurb.Query(app, "weather.get", func(ctx context.Context, in GetWeather) (string, error) {
		return "Sunny in " + in.City, nil
	}).Describe("Current weather for a city")

	ctx := context.Background()
	for _, args := range []string{`{"city":"Lisbon"}`, `{"units":"kelvin"}`} {
		res, _ := app.Call(ctx, "weather_get", json.RawMessage(args))
		fmt.Println(res.IsError, res.Content[0].(*mcp.TextContent).Text)
	}
	// Output:
	// false Sunny in Lisbon
	// true [weather_get] invalid arguments: city: is required; units: must be one of: metric, imperial
}

func ExampleWithExposition() {
	for _, exp := range []vurb.Exposition{vurb.Flat, vurb.Grouped} {
		app := vurb.New(vurb.WithExposition(exp))
		admin := app.Tool("admin").Describe("Administration.")
		users := admin.Group("users", "User accounts")
		vurb.Query(users, "list", func(context.Context, struct{}) (string, error) { return "[]", nil })
		vurb.Mutation(users, "ban", func(context.Context, UserRef) (string, error) { return "banned", nil })
		for _, tool := range app.Tools() {
			fmt.Printf("%s: %s\n", exp, tool.Name)
		}
	}
	// Output:
	// flat: admin_users_list
	// flat: admin_users_ban
	// grouped: admin
}

func ExampleMiddleware() {
	app := vurb.New()
	app.Use(func(next vurb.Handler) vurb.Handler {
		return func(ctx context.Context, c *vurb.Call) (*mcp.CallToolResult, error) {
			start := time.Now()
			res, err := next(ctx, c)
			_ = time.Since(start) // record the latency of c.Key somewhere
			fmt.Println("called", c.Key)
			return res, err
		}
	})
	vurb.Query(app, "weather.get", func(ctx context.Context, in GetWeather) (string, error) {
		return "Rain in " + in.City, nil
	})
	res, _ := app.Call(context.Background(), "weather_get", json.RawMessage(`{"city":"Bergen"}`))
	fmt.Println(res.Content[0].(*mcp.TextContent).Text)
	// Output:
	// called weather.get
	// Rain in Bergen
}

func ExampleApp_Attach() {
	app := vurb.New()
	vurb.Query(app, "weather.get", func(ctx context.Context, in GetWeather) (string, error) {
		return "Fog in " + in.City, nil
	})
	server := mcp.NewServer(&mcp.Implementation{Name: "host", Version: "1.0.0"}, nil)
	detach := app.Attach(server, vurb.WithExcludeTags("internal"))
	defer detach()
	// server now lists weather_get; run it with server.Run(ctx, transport).
	fmt.Println(len(app.Tools()))
	// Output: 1
}

func ExamplePolicy() {
	app := vurb.New(vurb.WithPolicies(
		vurb.Policy{Match: "countries.*", CacheControl: vurb.Immutable},
		vurb.Policy{Match: "tasks.update", Invalidates: []string{"tasks.*", "sprints.*"}},
	))
	vurb.Query(app, "countries.list", func(context.Context, struct{}) (string, error) { return "FR, JP", nil }).
		Describe("List country codes.")
	vurb.Action(app, "tasks.update", func(context.Context, struct{}) (string, error) { return "updated", nil })

	fmt.Println(app.Tools()[0].Description)
	res, _ := app.Call(context.Background(), "tasks_update", nil)
	for _, c := range res.Content {
		fmt.Println(c.(*mcp.TextContent).Text)
	}
	// Output:
	// Read-only: List country codes. [Cache-Control: immutable]
	// updated
	// [System: Cache invalidated for tasks.*, sprints.* — caused by tasks.update]
}
