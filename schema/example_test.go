package schema_test

import (
	"fmt"
	"reflect"
	"regexp"

	"github.com/go-playground/validator/v10"
	"github.com/vurb-go/vurb/schema"
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
	}, nil)
	fmt.Println(string(merged))

	// The router reads the discriminator without decoding the rest, then
	// decodes into the action's own struct, accepting and ignoring "action".
	args := []byte(`{"action":"rename","workspace_id":"ws_1","id":"p_9"}`)
	raw, _, _ := schema.Lookup(args, "action", schema.DecodeOptions{})
	var in RenameProject
	err := schema.For[RenameProject]().Decode(args, &in, schema.DecodeOptions{Skip: "action"})
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

func ExampleMessages() {
	fr := schema.DefaultMessages() // a copy of the built-in texts, ours to change
	fr.Required = "est obligatoire"
	fr.MaxNumber = "doit valoir au plus %s"

	var in ListProjects
	err := schema.For[ListProjects]().Decode([]byte(`{"limit":500}`), &in, schema.DecodeOptions{Messages: fr})
	fmt.Println(err)
	err = schema.For[ListProjects]().Decode([]byte(`{"limit":500}`), &in, schema.DecodeOptions{})
	fmt.Println(err)
	// Output:
	// workspace_id: est obligatoire; limit: doit valoir au plus 100
	// workspace_id: is required; limit: must be at most 100
}

type Order struct {
	SKU string `json:"sku" validate:"sku" description:"Stock-keeping unit"`
	Qty int    `json:"qty" validate:"min=1"`
}

func ExampleValidator_RegisterRule() {
	skus := schema.NewValidator(nil)
	pattern := regexp.MustCompile(`^[A-Z]{3}-[0-9]+$`)
	err := skus.RegisterRule("sku", func(fl validator.FieldLevel) bool {
		return pattern.MatchString(fl.Field().String())
	}, "must be a SKU like ABC-123")
	fmt.Println(err)
	fmt.Println(skus.RegisterRule("min", func(validator.FieldLevel) bool { return true }, ""))

	c := skus.CodecFor(reflect.TypeFor[Order]())
	var o Order
	fmt.Println(c.Decode([]byte(`{"sku":"abc","qty":0}`), &o, schema.DecodeOptions{}))
	fmt.Println(c.Fields()[0].Required) // the rule rejects "", what an absent sku decodes to
	// Output:
	// <nil>
	// schema: RegisterRule("min"): "min" is a built-in validator rule and cannot be redefined; choose another name
	// sku: must be a SKU like ABC-123; qty: must be at least 1
	// true
}
