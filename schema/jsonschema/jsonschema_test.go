package jsonschema_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb/schema"
	"github.com/vurb-go/vurb/schema/jsonschema"
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

// TestCodec: the schema is published as given, its fields read through
// $ref, valid calls are stored, and each refusal names every failed
// keyword at its path.
func TestCodec(t *testing.T) {
	is := is.New(t)
	c, err := jsonschema.Codec(json.RawMessage(rawContact))
	is.NoErr(err)
	var compact strings.Builder
	for _, line := range strings.Split(rawContact, "\n") {
		compact.WriteString(strings.TrimSpace(line))
	}
	is.Equal(strings.ReplaceAll(string(c.Schema()), " ", ""), strings.ReplaceAll(compact.String(), " ", ""))
	fs := c.Fields()
	is.Equal(len(fs), 3)
	is.Equal(fs[0], schema.Field{Name: "name", Type: "string", Required: true, Description: "Full name", Schema: json.RawMessage(`{"type":"string","description":"Full name"}`)})
	is.Equal(fs[1].Type, "string") // through its $ref

	var raw json.RawMessage
	is.NoErr(c.Decode([]byte(`{"name":"Ada","phone":"+331"}`), &raw, schema.DecodeOptions{}))
	is.Equal(string(raw), `{"name":"Ada","phone":"+331"}`)
	var m map[string]any
	is.NoErr(c.Decode([]byte(`{"name":"Ada","tags":["vip"]}`), &m, schema.DecodeOptions{}))
	is.Equal(m["tags"], []any{"vip"})

	for _, tc := range []struct{ in, want string }{
		{`{"name":"Ada"}`, `must satisfy one of: missing property 'phone'; or missing property 'tags'`},
		{`{"name":"Ada","phone":"331","tags":["x"]}`, `phone: '331' does not match pattern '^\\+[0-9]+$'; tags[0]: value must be 'vip'`},
		{`{"name":1,"tags":[]}`, `name: got number, want string`},
		{`{"name":"a","tags":[],"name":"b"}`, `duplicate field "name"`},
		{`[1]`, `arguments must be a JSON object, got array`},
	} {
		err := c.Decode([]byte(tc.in), &raw, schema.DecodeOptions{})
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: got %v, want %s", tc.in, err, tc.want)
		}
	}
	var n int
	is.True(c.Decode([]byte(`{}`), &n, schema.DecodeOptions{}) != nil) // a dst of the wrong type

	// The action's handler never sees a grouped tool's discriminator.
	is.NoErr(c.Decode([]byte(`{"action":"add","name":"Ada","phone":"+1"}`), &raw, schema.DecodeOptions{Skip: "action"}))
	is.Equal(string(raw), `{"name":"Ada","phone":"+1"}`)
}

// TestCodecRefuses: a schema that is not an object schema, not JSON, refers
// to another document or does not compile gives no Codec.
func TestCodecRefuses(t *testing.T) {
	for _, tc := range []struct{ doc, want string }{
		{`{"type":"string"}`, `the root must be an object schema with "type": "object"`},
		{`{"type":"object",`, `not JSON`},
		{`{"type":"object","properties":{"a":{"$ref":"file:///etc/passwd"}}}`, `references to other documents are not followed`},
		{`{"type":"object","properties":{"a":{"type":"nope"}}}`, `jsonschema:`},
	} {
		_, err := jsonschema.Codec(json.RawMessage(tc.doc))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", tc.doc, err, tc.want)
		}
	}
}
