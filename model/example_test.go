package model_test

import (
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/model"
)

// Any server's lists make a model; the vurb command does this with what
// tools/list returns.
func ExampleFromServer() {
	m, err := model.FromServer(model.Server{Name: "weather"}, model.Lists{
		Tools: []*mcp.Tool{{Name: "forecast", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}},
	})
	if err != nil {
		panic(err)
	}
	t := m.Tool("forecast")
	fmt.Println(t.FQN(), t.Annotations().IsDestructive())
	// Output: forecast false
}

// Converters go both ways without loss, one at a time or in batches that
// drop nils.
func ExampleToolToWire() {
	wire := []*mcp.Tool{{Name: "a", Title: "A"}, nil, {Name: "b"}}
	tools := model.ToolsFromWire(wire)
	back := model.ToolsToWire(tools)
	fmt.Println(len(tools), back[0].Name, back[0].Title, back[1].Name)
	// Output: 2 a A b
}

// An unset destructiveHint means true, as the MCP spec says.
func ExampleAnnotations_IsDestructive() {
	a := model.AnnotationsFromWire(&mcp.ToolAnnotations{Title: "Send"})
	fmt.Println(a.Destructive, a.IsDestructive())
	// Output: unset true
}
