package main

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
)

// Example shows the exact text the model receives: the tool descriptions
// it reads in tools/list, then the results of a successful change and of a
// failed one.
func Example() {
	app := NewApp()
	for _, tool := range app.Tools() {
		fmt.Printf("%s: %s\n", tool.Name, tool.Description)
	}
	fmt.Println()
	ctx := context.Background()
	for _, args := range []string{`{"task":"T-1","status":"done"}`, `{"task":"T-9","status":"done"}`} {
		res, _ := app.Call(ctx, "tasks_update", json.RawMessage(args))
		for _, c := range res.Content {
			fmt.Println(c.(*mcp.TextContent).Text)
		}
	}
	// Output:
	// meta_statuses: Read-only: List the task statuses. [Cache-Control: immutable]
	// sprints_list: Read-only: List sprints. [Cache-Control: no-store]
	// sprints_create: Create a sprint.
	// tasks_list: Read-only: List tasks with their status. [Cache-Control: no-store]
	// tasks_update: Change a task's status.
	//
	// T-1 is now done
	// [System: Cache invalidated for tasks.*, sprints.* — caused by tasks.update]
	// [tasks_update] task "T-9" not found; list tasks to see their ids
}

// TestGroupedOverTheWire checks the same behaviour in grouped exposition,
// through a real client.
func TestGroupedOverTheWire(t *testing.T) {
	is := is.New(t)
	st, ct := mcp.NewInMemoryTransports()
	ss, err := NewApp(vurb.WithExposition(vurb.Grouped)).NewServer().Connect(context.Background(), st, nil)
	is.NoErr(err)
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(context.Background(), ct, nil)
	is.NoErr(err)
	defer cs.Close()

	list, err := cs.ListTools(context.Background(), nil)
	is.NoErr(err)
	for _, tool := range list.Tools {
		if tool.Name == "meta" {
			is.Equal(tool.Description, "statuses: List the task statuses [Cache-Control: immutable]")
		}
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "sprints", Arguments: map[string]any{"action": "create", "name": "S2"}})
	is.NoErr(err)
	is.Equal(res.Content[len(res.Content)-1].(*mcp.TextContent).Text, "[System: Cache invalidated for sprints.* — caused by sprints.create]")
}
