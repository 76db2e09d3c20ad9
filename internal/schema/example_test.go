package schema_test

import (
	"fmt"
	"reflect"

	"github.com/vurb-go/vurb/internal/schema"
)

type ListProjects struct {
	WorkspaceID string `json:"workspace_id" validate:"required" description:"Workspace ID"`
	Limit       *int   `json:"limit,omitempty" validate:"omitempty,min=1,max=100" description:"Page size"`
}

func ExampleCodecFor() {
	c := schema.For[ListProjects]() // reflection happens here, once
	fmt.Println(string(c.Schema()))

	var in ListProjects
	err := c.Decode([]byte(`{"workspace_id":"ws_1","limit":20}`), &in, schema.DecodeOptions{})
	fmt.Println(in.WorkspaceID, *in.Limit, err)

	err = c.Decode([]byte(`{"Workspace_ID":"ws_1","limit":500}`), &in, schema.DecodeOptions{})
	fmt.Println(err)
	// Output:
	// {"type":"object","properties":{"workspace_id":{"type":"string","minLength":1},"limit":{"type":"integer","description":"Page size","minimum":1,"maximum":100}},"required":["workspace_id"],"additionalProperties":false}
	// ws_1 20 <nil>
	// unknown field "Workspace_ID" (did you mean "workspace_id"?); accepted: workspace_id, limit; workspace_id: is required; limit: must be at most 100
}

type (
	Common struct {
		WorkspaceID string `json:"workspace_id" validate:"required" description:"Workspace ID"`
	}
	CreateProject struct {
		Common
		Name string `json:"name" validate:"required" description:"Project name"`
	}
	RenameProject struct {
		Common
		ID   string `json:"id" validate:"required" description:"Project ID"`
		Name string `json:"name,omitempty" description:"Project name"`
	}
	SearchProjects struct {
		Common
		Query string `json:"query,omitempty" description:"Full-text query"`
	}
)

func ExampleMerge() {
	merged := schema.Merge("action", schema.For[Common](), []schema.Member{
		{Key: "create", Codec: schema.For[CreateProject]()},
		{Key: "rename", Codec: schema.For[RenameProject]()},
		{Key: "search", Codec: schema.For[SearchProjects]()},
	})
	fmt.Println(string(merged))

	// The router reads the discriminator without decoding the rest, then
	// decodes into the action's own struct, accepting and ignoring "action".
	args := []byte(`{"action":"rename","workspace_id":"ws_1","id":"p_9"}`)
	raw, _, _ := schema.Lookup(args, "action", schema.Limits{})
	var in RenameProject
	err := schema.DecodeSkipping(schema.For[RenameProject](), args, &in, schema.DecodeOptions{}, "action")
	fmt.Println(string(raw), in.ID, err)
	// Output:
	// {"type":"object","properties":{"action":{"type":"string","enum":["create","rename","search"]},"workspace_id":{"type":"string","minLength":1},"name":{"type":"string","description":"Project name\ncreate (required): min length 1\nrename"},"id":{"type":"string","description":"rename (required): Project ID","minLength":1},"query":{"type":"string","description":"search: Full-text query"}},"required":["action","workspace_id"],"additionalProperties":false}
	// "rename" p_9 <nil>
}

type Project struct {
	ID   string   `json:"id" validate:"required"`
	Tags []string `json:"tags"`
}

func ExampleOutputSchema() {
	s, ok := schema.OutputSchema(reflect.TypeFor[Project]())
	fmt.Println(string(s), ok)
	// Output:
	// {"type":"object","properties":{"id":{"type":"string"},"tags":{"type":["array","null"],"items":{"type":"string"}}},"required":["id"]} true
}
