package schema

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/matryer/is"
)

const rawContact = `{
  "type": "object",
  "$defs": {"phone": {"type": "string", "pattern": "^\\+[0-9]+$"}},
  "properties": {
    "name": {"type": "string", "description": "Full name"},
    "phone": {"$ref": "#/$defs/phone"},
    "tags": {"type": "array", "items": {"const": "vip"}}
  },
  "required": ["name"],
  "anyOf": [{"required": ["phone"]}, {"required": ["tags"]}],
  "additionalProperties": false
}`

func TestCodecFromSchema(t *testing.T) {
	is := is.New(t)
	c, err := CodecFromSchema(json.RawMessage(rawContact))
	is.NoErr(err)
	var compact strings.Builder
	for _, line := range strings.Split(rawContact, "\n") {
		compact.WriteString(strings.TrimSpace(line))
	}
	is.Equal(strings.ReplaceAll(string(c.Schema()), " ", ""), strings.ReplaceAll(compact.String(), " ", ""))
	fs := c.Fields()
	is.Equal(len(fs), 3)
	is.Equal(fs[0], Field{Name: "name", Type: "string", Required: true, Description: "Full name", Schema: json.RawMessage(`{"type":"string","description":"Full name"}`)})
	is.Equal(fs[1].Type, "string") // through its $ref

	var raw json.RawMessage
	is.NoErr(c.Decode([]byte(`{"name":"Ada","phone":"+331"}`), &raw, DecodeOptions{}))
	is.Equal(string(raw), `{"name":"Ada","phone":"+331"}`)
	var m map[string]any
	is.NoErr(c.Decode([]byte(`{"name":"Ada","tags":["vip"]}`), &m, DecodeOptions{}))
	is.Equal(m["tags"], []any{"vip"})

	for _, tc := range []struct{ in, want string }{
		{`{"name":"Ada"}`, `must satisfy one of: missing property 'phone'; or missing property 'tags'`},
		{`{"name":"Ada","phone":"331","tags":["x"]}`, `phone: '331' does not match pattern '^\\+[0-9]+$'; tags[0]: value must be 'vip'`},
		{`{"name":1,"tags":[]}`, `name: got number, want string`},
		{`{"name":"a","tags":[],"name":"b"}`, `duplicate field "name"`},
		{`[1]`, `arguments must be a JSON object, got array`},
	} {
		err := c.Decode([]byte(tc.in), &raw, DecodeOptions{})
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: got %v, want %s", tc.in, err, tc.want)
		}
	}
	var n int
	is.True(c.Decode([]byte(`{}`), &n, DecodeOptions{}) != nil) // a dst of the wrong type

	// The action's handler never sees a grouped tool's discriminator.
	is.NoErr(DecodeSkipping(c, []byte(`{"action":"add","name":"Ada","phone":"+1"}`), &raw, DecodeOptions{}, "action"))
	is.Equal(string(raw), `{"name":"Ada","phone":"+1"}`)
}

func TestCodecFromSchemaRefuses(t *testing.T) {
	for _, tc := range []struct{ doc, want string }{
		{`{"type":"string"}`, `the root must be an object schema with "type": "object"`},
		{`{"type":"object",`, `not JSON`},
		{`{"type":"object","properties":{"a":{"$ref":"file:///etc/passwd"}}}`, `references to other documents are not followed`},
		{`{"type":"object","properties":{"a":{"type":"nope"}}}`, `jsonschema`},
	} {
		_, err := CodecFromSchema(json.RawMessage(tc.doc))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", tc.doc, err, tc.want)
		}
	}
}

// TestMergeKeepsWholeObjectRules: conditional rules and a hand-written
// schema's composition hold in a grouped tool's schema for their action.
func TestMergeKeepsWholeObjectRules(t *testing.T) {
	is := is.New(t)
	raw, err := CodecFromSchema(json.RawMessage(rawContact))
	is.NoErr(err)
	got := string(Merge("action", nil, []Member{{Key: "pay", Codec: For[condPay]()}, {Key: "add", Codec: raw}}))
	is.True(strings.Contains(got, `"allOf":[{"if":{"properties":{"action":{"const":"pay"}},"required":["action"]},"then":{"dependentRequired":{"ref":["note"]},"allOf":[`))
	is.True(strings.Contains(got, `{"if":{"properties":{"action":{"const":"add"}},"required":["action"]},"then":{"anyOf":[{"required":["phone"]},{"required":["tags"]}]}}]`))
	is.True(strings.Contains(got, `"$defs":{"phone":{"type":"string","pattern":"^\\+[0-9]+$"}}`))
	sch, err := compileAsserting([]byte(got))
	is.NoErr(err)
	for in, ok := range map[string]bool{
		`{"action":"add","name":"a","phone":"+1"}`:     true,
		`{"action":"add","name":"a"}`:                  false,
		`{"action":"pay","method":"card"}`:             false,
		`{"action":"pay","method":"bank","gift":true}`: true,
	} {
		inst, _ := parseInstance(in)
		if (sch.Validate(inst) == nil) != ok {
			t.Errorf("%s: schema verdict is not %v", in, ok)
		}
	}
	open, err := CodecFromSchema(json.RawMessage(`{"type":"object","properties":{"a":{"type":"string"}}}`))
	is.NoErr(err)
	is.True(strings.Contains(panicText(func() { Merge("action", nil, []Member{{Key: "x", Codec: open}}) }), `without "additionalProperties": false`))
}
