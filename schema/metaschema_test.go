package schema

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// emittedSchemas is every kind of schema the package emits: inputs (flat,
// nested, recursive), merged, outputs.
func emittedSchemas(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	inputs := []reflect.Type{
		reflect.TypeFor[listProjects](), reflect.TypeFor[decodeInput](), reflect.TypeFor[hostileInput](),
		reflect.TypeFor[benchInput](), reflect.TypeFor[agreeAll](), reflect.TypeFor[treeInput](),
		reflect.TypeFor[selfRef](), reflect.TypeFor[mutualA](), reflect.TypeFor[projCreate](),
	}
	for _, tc := range tagCases {
		inputs = append(inputs, reflect.TypeOf(tc.v))
	}
	for _, typ := range inputs {
		out["input "+typ.Name()] = CodecFor(typ).Schema()
	}
	out["merged"] = Merge("action", For[projCommon](), projMembers(), nil)
	out["merged recursive"] = Merge("action", nil, []Member{{Key: "tree", Codec: For[treeInput]()}, {Key: "self", Codec: For[selfRef]()}}, nil)
	for _, typ := range []reflect.Type{reflect.TypeFor[projectOut](), reflect.TypeFor[treeNode](), reflect.TypeFor[agreeAll]()} {
		s, ok := OutputSchema(typ)
		if !ok {
			t.Fatalf("no output schema for %s", typ)
		}
		out["output "+typ.Name()] = s
	}
	return out
}

func compileSchema(draft *jsonschema.Draft, raw []byte) (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(draft)
	if err := c.AddResource("mem://schema.json", doc); err != nil {
		return nil, err
	}
	return c.Compile("mem://schema.json")
}

// TestSchemasAreValid compiles every emitted schema against the draft
// 2020-12 meta-schema (what MCP reads) and the draft-07 one (what swaggest
// and many clients speak), and checks that it is self-contained.
func TestSchemasAreValid(t *testing.T) {
	for name, raw := range emittedSchemas(t) {
		t.Run(name, func(t *testing.T) {
			for _, d := range []*jsonschema.Draft{jsonschema.Draft2020, jsonschema.Draft7} {
				if _, err := compileSchema(d, raw); err != nil {
					t.Fatalf("%v\n%s", err, raw)
				}
			}
			for _, bad := range []string{`"$schema"`, `"definitions"`, `"$ref":"#"`, `"$id"`} {
				if bytes.Contains(raw, []byte(bad)) {
					t.Fatalf("schema contains %s: %s", bad, raw)
				}
			}
			if !strings.HasPrefix(string(raw), `{"type":"object",`) {
				t.Fatalf("root is not an object schema: %s", raw)
			}
		})
	}
}

// TestDecodedArgumentsMatchSchema checks the agreement from the other side:
// arguments Decode accepts are valid against the schema it advertises.
func TestDecodedArgumentsMatchSchema(t *testing.T) {
	for _, tc := range agreementCases {
		t.Run(tc.typ.Name(), func(t *testing.T) {
			c := CodecFor(tc.typ)
			if err := c.Decode([]byte(tc.valid), reflect.New(tc.typ).Interface(), DecodeOptions{}); err != nil {
				t.Fatal(err)
			}
			sch, err := compileSchema(jsonschema.Draft2020, c.Schema())
			if err != nil {
				t.Fatal(err)
			}
			inst, err := jsonschema.UnmarshalJSON(strings.NewReader(tc.valid))
			if err != nil {
				t.Fatal(err)
			}
			if err := sch.Validate(inst); err != nil {
				t.Fatalf("Decode accepted what the schema refuses: %v", err)
			}
		})
	}
}

// TestMergedSchemaAcceptsEveryAction validates one call per action against
// the merged schema.
func TestMergedSchemaAcceptsEveryAction(t *testing.T) {
	sch, err := compileSchema(jsonschema.Draft2020, Merge("action", For[projCommon](), projMembers(), nil))
	if err != nil {
		t.Fatal(err)
	}
	for _, call := range []string{
		`{"action":"create","workspace_id":"w","name":"n","color":"red"}`,
		`{"action":"update","workspace_id":"w","id":"1","color":"blue"}`,
		`{"action":"delete","workspace_id":"w","id":"1"}`,
		`{"action":"list","workspace_id":"w","limit":10}`,
		`{"action":"search","workspace_id":"w","query":"q","verbose":true}`,
	} {
		inst, _ := jsonschema.UnmarshalJSON(strings.NewReader(call))
		if err := sch.Validate(inst); err != nil {
			t.Errorf("%s: %v", call, err)
		}
	}
	for _, call := range []string{`{"workspace_id":"w"}`, `{"action":"drop","workspace_id":"w"}`, `{"action":"list"}`, `{"action":"list","workspace_id":"w","x":1}`} {
		inst, _ := jsonschema.UnmarshalJSON(strings.NewReader(call))
		if err := sch.Validate(inst); err == nil {
			t.Errorf("%s: accepted", call)
		}
	}
}
