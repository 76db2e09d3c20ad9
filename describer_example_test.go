package vurb_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/describe"
)

// An app replaces the flat decoration and keeps the rest of the defaults.
func ExampleWithDescriber() {
	app := vurb.New(vurb.WithDescriber(describe.Describer{
		Flat: func(tool string, a describe.Action) string {
			if describe.HintsOf(a).ReadOnly {
				return a.Description + " (no side effects)"
			}
			return describe.Flat(tool, a)
		},
	}))
	vurb.Query(app, "projects.list", func(context.Context, struct{}) (string, error) { return "", nil }).Describe("List projects")
	vurb.Mutation(app, "projects.delete", func(context.Context, struct{}) (string, error) { return "", nil }).Describe("Delete a project")
	for _, tool := range app.Tools() {
		fmt.Printf("%s: %s\n", tool.Name, tool.Description)
	}
	// Output:
	// projects_list: List projects (no side effects)
	// projects_delete: Destructive: Delete a project
}

func TestDescriberReachesGroupedAndTOON(t *testing.T) {
	is := is.New(t)
	d := describe.Describer{
		Grouped: func(tl describe.Tool) string { return fmt.Sprintf("%s: %d actions", tl.Name, len(tl.Actions)) },
		TOON:    func(tl describe.Tool) (string, error) { return "toon " + tl.Name, nil },
	}
	app := vurb.New(vurb.WithExposition(vurb.Grouped), vurb.WithDescriber(d))
	noop := func(context.Context, struct{}) (string, error) { return "", nil }
	vurb.Query(app, "projects.list", noop)
	vurb.Query(app, "projects.get", noop)
	vurb.Query(app.Tool("users").TOONDescription(), "list", noop)
	vurb.Query(app, "users.get", noop)
	tools := app.Tools()
	is.Equal(tools[0].Description, "projects: 2 actions")
	is.Equal(tools[1].Description, "toon users")
}
