package vurb_test

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/go-playground/validator/v10"
	"github.com/matryer/is"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/schema"
	"github.com/vurb-go/vurb/schema/jsonschema"
)

// contactSchema is a hand-written 2020-12 schema: $defs and $ref, an enum,
// a conditional (if/then/else on a const) and a composition (allOf/anyOf).
const contactSchema = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "$defs": {"address": {"$anchor": "addressDef", "type": "object",
    "properties": {"street": {"type": "string"}, "city": {"type": "string"}}, "required": ["city"]}},
  "properties": {
    "name": {"type": "string", "description": "Who to contact"},
    "address": {"$ref": "#/$defs/address"},
    "contactMethod": {"type": "string", "enum": ["phone", "email"]},
    "phone": {"type": "string"},
    "email": {"type": "string", "format": "email"}
  },
  "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
  "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
  "then": {"required": ["phone"]},
  "else": {"required": ["email"]},
  "additionalProperties": false
}`

func TestInputSchemaPublishedAndEnforced(t *testing.T) {
	is := is.New(t)
	app := vurb.New()
	vurb.Action(app, "contacts.add", func(_ context.Context, in json.RawMessage) (string, error) {
		return "added " + string(in), nil
	}).Describe("Add a contact").InputSchema(jsonschema.MustCodec(json.RawMessage(contactSchema)))
	vurb.Query(app, "contacts.find", func(_ context.Context, in map[string]any) (string, error) {
		return "found " + in["name"].(string), nil
	}).InputSchema(jsonschema.MustCodec(json.RawMessage(`{"type":"object","properties":{"name":{"type":"string","minLength":1}},"required":["name"],"additionalProperties":false}`)))
	cs := connect(t, app, nil)

	res, err := cs.ListTools(context.Background(), nil)
	is.NoErr(err)
	var published json.RawMessage
	for _, tool := range res.Tools {
		if tool.Name == "contacts_add" {
			published, _ = json.Marshal(tool.InputSchema)
		}
	}
	// As given: $schema, $defs with $anchor, allOf/anyOf, if/then/else.
	var got, want map[string]any
	is.NoErr(json.Unmarshal(published, &got))
	is.NoErr(json.Unmarshal([]byte(contactSchema), &want))
	is.Equal(mustJSON(t, got), mustJSON(t, want))

	for _, tc := range []struct{ tool, args, want string }{
		{"contacts_add", `{"name":"Ada","contactMethod":"phone","phone":"555"}`, `added {"name":"Ada","contactMethod":"phone","phone":"555"}`},
		{"contacts_add", `{"name":"Ada","contactMethod":"phone","email":"a@example.com"}`,
			"[contacts_add] invalid arguments: missing property 'phone'"},
		{"contacts_add", `{"name":"Ada"}`,
			"[contacts_add] invalid arguments: must satisfy one of: missing property 'phone'; or missing property 'email'; missing property 'email'"},
		{"contacts_add", `{"email":"not an email","address":{"street":"x"}}`,
			"[contacts_add] invalid arguments: address: missing property 'city'; email: 'not an email' is not valid email: missing @"},
		{"contacts_add", `{"email":"a@example.com","nick":"x"}`, "[contacts_add] invalid arguments: additional properties 'nick' not allowed"},
		{"contacts_add", `{"email":"a@example.com","email":"b@example.com"}`, `[contacts_add] invalid arguments: duplicate field "email"`},
		{"contacts_find", `{"name":"Ada"}`, "found Ada"},
		{"contacts_find", `{"name":""}`, "[contacts_find] invalid arguments: name: minLength: got 0, want 1"},
	} {
		res, err := callRaw(t, cs, tc.tool, tc.args)
		is.NoErr(err)
		is.Equal(text(res), tc.want)
	}
}

func TestInputSchemaMistakes(t *testing.T) {
	is := is.New(t)
	panicsWith := func(fn func(), want string) {
		t.Helper()
		defer func() {
			r := recover()
			msg, _ := r.(string)
			if !strings.Contains(msg, want) {
				t.Fatalf("panic %v, want it to contain %q", r, want)
			}
		}()
		fn()
	}
	// A raw input without its schema: Build says what to do.
	panicsWith(func() {
		app := vurb.New()
		vurb.Action(app, "raw.take", func(context.Context, json.RawMessage) (string, error) { return "", nil })
		app.Build()
	}, `vurb: action "raw.take" takes json.RawMessage, which has no schema of its own: declare it with .InputSchema(jsonschema.MustCodec(doc))`)
	panicsWith(func() {
		app := vurb.New()
		vurb.Action(app, "raw.take", func(context.Context, noInput) (string, error) { return "", nil }).
			InputSchema(jsonschema.MustCodec(json.RawMessage(`{"type":"object"}`)))
	}, "InputSchema is for handlers that take json.RawMessage or map[string]any")
	panicsWith(func() {
		app := vurb.New()
		vurb.Action(app, "raw.take", func(context.Context, json.RawMessage) (string, error) { return "", nil }).
			InputSchema(schema.For[noInput]())
	}, `vurb: action "raw.take": InputSchema takes the Codec of a hand-written schema, such as jsonschema.MustCodec(doc) makes`)
	panicsWith(func() {
		app := vurb.New()
		vurb.Action(app, "raw.take", func(context.Context, json.RawMessage) (string, error) { return "", nil }).
			InputSchema(jsonschema.MustCodec(json.RawMessage(`{"type":"string"}`)))
	}, `the root must be an object schema with "type": "object"`)
	panicsWith(func() {
		app := vurb.New()
		vurb.Action(app, "raw.take", func(context.Context, json.RawMessage) (string, error) { return "", nil }).
			InputSchema(jsonschema.MustCodec(json.RawMessage(`{"type":"object","properties":{"a":{"$ref":"https://example.com/a.json"}}}`)))
	}, "references to other documents are not followed")
	is.True(true)
}

// TestInputSchemaGrouped: in a grouped tool, a hand-written schema's
// properties are merged, its whole-object keywords hold for its action
// only, and its handler does not see the discriminator.
func TestInputSchemaGrouped(t *testing.T) {
	is := is.New(t)
	app := vurb.New(vurb.WithExposition(vurb.Grouped))
	contacts := app.Tool("contacts")
	vurb.Action(contacts, "add", func(_ context.Context, in json.RawMessage) (string, error) {
		return "added " + string(in), nil
	}).InputSchema(jsonschema.MustCodec(json.RawMessage(contactSchema)))
	vurb.Query(contacts, "count", func(context.Context, noInput) (string, error) { return "3", nil })
	cs := connect(t, app, nil)
	res, err := callRaw(t, cs, "contacts", `{"action":"add","email":"a@example.com"}`)
	is.NoErr(err)
	is.Equal(text(res), `added {"email":"a@example.com"}`)
	res, err = callRaw(t, cs, "contacts", `{"action":"add","phone":"555","contactMethod":"email"}`)
	is.NoErr(err)
	is.Equal(text(res), "[contacts action=add] invalid arguments: missing property 'email'")
	list, err := cs.ListTools(context.Background(), nil)
	is.NoErr(err)
	s := mustJSON(t, list.Tools[0].InputSchema)
	is.True(strings.Contains(s, `"then":{"allOf":[{"anyOf":[{"required":["phone"]},{"required":["email"]}]}]`))
	is.True(strings.Contains(s, `"address":{"$anchor":"addressDef"`))
}

// TestCustomRuleIsStated: a custom rule registered without a schema
// mapping is stated in the description, in its author's words, and its
// refusal reads them too; two apps each state and enforce their own.
func TestCustomRuleIsStated(t *testing.T) {
	is := is.New(t)
	skuAB := func(fl validator.FieldLevel) bool {
		return regexp.MustCompile(`^AB-\d{4}$`).MatchString(fl.Field().String())
	}
	skuXY := func(fl validator.FieldLevel) bool { return strings.HasPrefix(fl.Field().String(), "XY") }
	order := func(_ context.Context, in Order) (string, error) { return "ordered " + in.SKU, nil }
	ab := vurb.New(vurb.WithRule("sku", skuAB, "must be an SKU like AB-1234"))
	vurb.Action(ab, "shop.order", order)
	xy := vurb.New(vurb.WithRule("sku", skuXY, "doit commencer par XY"))
	vurb.Action(xy, "shop.order", order)
	for _, tc := range []struct {
		app        *vurb.App
		desc, args string
		want       string
	}{
		{ab, "Stock-keeping unit. Must be an SKU like AB-1234.", `{"sku":"XY-1"}`, "[shop_order] invalid arguments: sku: must be an SKU like AB-1234"},
		{xy, "Stock-keeping unit. Doit commencer par XY.", `{"sku":"AB-1234"}`, "[shop_order] invalid arguments: sku: doit commencer par XY"},
	} {
		cs := connect(t, tc.app, nil)
		list, err := cs.ListTools(context.Background(), nil)
		is.NoErr(err)
		props := list.Tools[0].InputSchema.(map[string]any)["properties"].(map[string]any)
		is.Equal(props["sku"].(map[string]any)["description"], tc.desc)
		res, err := callRaw(t, cs, "shop_order", tc.args)
		is.NoErr(err)
		is.Equal(text(res), tc.want)
	}
}
