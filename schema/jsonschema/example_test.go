package jsonschema_test

import (
	"encoding/json"
	"fmt"

	"github.com/vurb-go/vurb/schema"
	"github.com/vurb-go/vurb/schema/jsonschema"
)

func ExampleCodec() {
	c, err := jsonschema.Codec(json.RawMessage(`{
		"type": "object",
		"properties": {"contactMethod": {"enum": ["phone", "email"]}, "phone": {"type": "string"}},
		"if": {"properties": {"contactMethod": {"const": "phone"}}},
		"then": {"required": ["phone"]},
		"additionalProperties": false
	}`))
	fmt.Println(string(c.Schema()), err)

	var args json.RawMessage
	fmt.Println(c.Decode([]byte(`{"contactMethod":"phone","phone":"555"}`), &args, schema.DecodeOptions{}), string(args))
	fmt.Println(c.Decode([]byte(`{"contactMethod":"phone"}`), &args, schema.DecodeOptions{}))
	// Output:
	// {"type":"object","properties":{"contactMethod":{"enum":["phone","email"]},"phone":{"type":"string"}},"if":{"properties":{"contactMethod":{"const":"phone"}}},"then":{"required":["phone"]},"additionalProperties":false} <nil>
	// <nil> {"contactMethod":"phone","phone":"555"}
	// missing property 'phone'
}
