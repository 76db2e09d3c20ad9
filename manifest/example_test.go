package manifest_test

import (
	"encoding/json"
	"fmt"

	"github.com/vurb-go/vurb/manifest"
)

// Diff classifies each change; a CI step fails on Breaking.
func ExampleDiff() {
	old := manifest.Manifest{Tools: []manifest.Tool{{
		Name:        "projects_create",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`),
	}}}
	new := manifest.Manifest{Tools: []manifest.Tool{{
		Name:        "projects_create",
		Description: "Create a project",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"},"owner":{"type":"string"}},"required":["name","owner"]}`),
	}, {
		Name:        "projects_archive",
		InputSchema: json.RawMessage(`{"type":"object"}`),
	}}}
	changes := manifest.Diff(old, new)
	for _, c := range changes {
		fmt.Println(c)
	}
	fmt.Println("breaking:", manifest.Breaking(changes))
	// Output:
	// compatible  tools/projects_archive: new tool
	// compatible  tools/projects_create/description: description changed: what a model reads about it is new
	// BREAKING    tools/projects_create/input/owner: new required field "owner": calls without it are refused
	// breaking: true
}

// A lockfile pins one digest per entity; Check says what drifted.
func ExampleCheck() {
	m := manifest.Manifest{Tools: []manifest.Tool{{Name: "search", InputSchema: json.RawMessage(`{"type":"object"}`)}}}
	pinned := manifest.LockOf(m)
	m.Tools[0].Description = "Search the catalogue"
	for _, d := range manifest.Check(pinned, manifest.LockOf(m)) {
		fmt.Println(d)
	}
	// Output: tool search changed
}
