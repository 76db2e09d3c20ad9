package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/examples/quickstart/projects"
)

// Example_call drives the quickstart in-process with App.Call: the same
// pipeline a client's tools/call takes.
func Example_call() {
	app := projects.NewApp()
	ctx := context.Background()
	for _, c := range []struct{ tool, args string }{
		{"projects_create", `{"name":"Apollo"}`},
		{"projects_create", `{"name":"Go"}`},
		{"projects_list", `{"limit":10}`},
		{"projects_delete", `{"id":"p9"}`},
		{"projects_list", `{"limit":500,"page":2}`},
	} {
		res, err := app.Call(ctx, c.tool, json.RawMessage(c.args))
		if err != nil {
			fmt.Println("protocol error:", err)
			continue
		}
		fmt.Printf("%s isError=%v: %s\n", c.tool, res.IsError, res.Content[0].(*mcp.TextContent).Text)
	}
	// Output:
	// projects_create isError=false: {"id":"p1","name":"Apollo"}
	// projects_create isError=true: [projects_create] invalid arguments: name: must be at least 3 characters
	// projects_list isError=false: {"projects":[{"id":"p1","name":"Apollo"}]}
	// projects_delete isError=true: [projects_delete] project "p9" not found; list projects to see their ids
	// projects_list isError=true: [projects_list] invalid arguments: unknown field "page"; accepted: limit; limit: must be at most 100
}
