package schema

import (
	"encoding/json"
	"fmt"
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

// truthChecker checks calls against doc with the validator the truth
// tests use: one Issue with its error when a call is refused.
func truthChecker(t *testing.T, doc string) Checker {
	sch, err := compileAsserting([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	return checkFunc(func(inst any) []Issue {
		if err := sch.Validate(inst); err != nil {
			return []Issue{{Message: err.Error()}}
		}
		return nil
	})
}

type checkFunc func(any) []Issue

func (f checkFunc) Check(inst any) []Issue { return f(inst) }

// TestCodecFromSchemaRefuses: no Codec without a Checker, from what is
// not JSON, or from a root that is not an object schema.
func TestCodecFromSchemaRefuses(t *testing.T) {
	check := checkFunc(func(any) []Issue { return nil })
	for _, tc := range []struct {
		doc   string
		check Checker
		want  string
	}{
		{`{"type":"object"}`, nil, "nil Checker"},
		{`{"type":"object",`, check, "not JSON"},
		{`{"type":"string"}`, check, `the root must be an object schema with "type": "object"`},
	} {
		_, err := CodecFromSchema(json.RawMessage(tc.doc), tc.check)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", tc.doc, err, tc.want)
		}
	}
}

// TestCodecFromSchemaBoundsIssues: a Checker's issues come back by path,
// each once, at most MaxIssues of them and then a count of the rest; the
// call's limits and well-formedness are checked before the Checker runs.
func TestCodecFromSchemaBoundsIssues(t *testing.T) {
	is := is.New(t)
	ran := 0
	c, err := CodecFromSchema(json.RawMessage(`{"type":"object"}`), checkFunc(func(any) []Issue {
		ran++
		out := []Issue{{Path: "b", Message: "x"}, {Path: "a", Message: "y"}, {Path: "b", Message: "x"}}
		for i := range 5 {
			out = append(out, Issue{Path: fmt.Sprintf("z%d", i), Message: "z"})
		}
		return out
	}))
	is.NoErr(err)
	var raw json.RawMessage
	err = c.Decode([]byte(`{}`), &raw, DecodeOptions{Messages: &Messages{MaxIssues: 3, MoreIssues: "%d more"}})
	is.Equal(err.Error(), "a: y; b: x; z0: z; 4 more")
	is.Equal(ran, 1)
	err = c.Decode([]byte(`{"a":1,"a":2}`), &raw, DecodeOptions{})
	is.Equal(err.Error(), `duplicate field "a"`)
	is.Equal(ran, 1) // refused before the Checker
}

// TestMergeKeepsWholeObjectRules: conditional rules and a hand-written
// schema's composition hold in a grouped tool's schema for their action.
func TestMergeKeepsWholeObjectRules(t *testing.T) {
	is := is.New(t)
	raw, err := CodecFromSchema(json.RawMessage(rawContact), truthChecker(t, rawContact))
	is.NoErr(err)
	got := string(Merge("action", nil, []Member{{Key: "pay", Codec: For[condPay]()}, {Key: "add", Codec: raw}}, nil))
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
	const openDoc = `{"type":"object","properties":{"a":{"type":"string"}}}`
	open, err := CodecFromSchema(json.RawMessage(openDoc), truthChecker(t, openDoc))
	is.NoErr(err)
	is.True(strings.Contains(panicText(func() { Merge("action", nil, []Member{{Key: "x", Codec: open}}, nil) }), `without "additionalProperties": false`))
}
