package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/matryer/is"
)

func TestSplitWords(t *testing.T) {
	is := is.New(t)
	for _, tc := range []struct {
		line string
		want []string
	}{
		{"./server", []string{"./server"}},
		{"  go run ./cmd/server  -http :0 ", []string{"go", "run", "./cmd/server", "-http", ":0"}},
		{`sh -c 'echo "hi" >&2'`, []string{"sh", "-c", `echo "hi" >&2`}},
		{`server --name "two words" a\ b`, []string{"server", "--name", "two words", "a b"}},
		{`x "say \"hi\"" ''`, []string{"x", `say "hi"`, ""}},
	} {
		got, err := splitWords(tc.line)
		is.NoErr(err)
		is.Equal(got, tc.want)
	}
	_, err := splitWords(`sh -c 'oops`)
	is.Equal(err.Error(), "unclosed single quote")
	_, err = splitWords(`sh -c "oops`)
	is.Equal(err.Error(), "unclosed double quote")
}

func TestParseSource(t *testing.T) {
	is := is.New(t)
	s, err := parseSource("http://127.0.0.1:8080/mcp", true)
	is.NoErr(err)
	is.Equal(s.kind, urlSource)
	s, err = parseSource("./server -v", false)
	is.NoErr(err)
	is.Equal(s.kind, commandSource)
	is.Equal(s.words, []string{"./server", "-v"})
	_, err = parseSource("missing.json", true)
	is.True(err != nil)
	_, err = parseSource("  ", false)
	is.Equal(err.Error(), "the server is empty: give a URL or a command line")
}

func TestParseArguments(t *testing.T) {
	is := is.New(t)
	got, err := parseArguments([]string{"name=Apollo", "limit:=10", "tags:=[\"a\"]", "note=a=b", "id:=\"7\""})
	is.NoErr(err)
	is.Equal(got.values, map[string]any{"name": "Apollo", "limit": float64(10), "tags": []any{"a"}, "note": "a=b", "id": "7"})
	is.Equal(got.loose, []string{"name", "note"}) // the key=value pairs, which the schema may type
	got, err = parseArguments([]string{`{"limit": 5}`})
	is.NoErr(err)
	is.Equal(got.values, map[string]any{"limit": float64(5)})
	is.Equal(len(got.loose), 0)
	got, err = parseArguments(nil)
	is.NoErr(err)
	is.Equal(got.values, map[string]any{})
	got, err = parseArguments([]string{"limit=1", "limit:=2"}) // the last one given wins, and it is JSON
	is.NoErr(err)
	is.Equal(got.typed(map[string]any{"properties": map[string]any{"limit": map[string]any{"type": "string"}}}), map[string]any{"limit": float64(2)})
	_, err = parseArguments([]string{"limit:=ten"})
	is.Equal(err.Error(), `argument limit: "ten" is not JSON (use limit=ten for a string)`)
	_, err = parseArguments([]string{"oops"})
	is.Equal(err.Error(), `argument "oops" is not key=value, key:=json or a JSON object`)
}

// TestArgumentsTypedBySchema: limit=2 went out as the string "2", and a
// server typing limit an integer refused it; the MCP Inspector reads its
// form by the schema. key=value is now read by the tool's input schema,
// and a string stays a string.
func TestArgumentsTypedBySchema(t *testing.T) {
	is := is.New(t)
	var schema map[string]any
	is.NoErr(json.Unmarshal([]byte(`{
		"type": "object",
		"properties": {
			"limit": {"type": "integer"},
			"ratio": {"type": "number"},
			"exact": {"type": "boolean"},
			"tags": {"type": ["null", "array"], "items": {"type": "string"}},
			"filter": {"type": "object"},
			"id": {"type": "string"},
			"code": {"type": ["string", "integer"]},
			"size": {"enum": [1, 2, 3]},
			"mode": {"anyOf": [{"type": "null"}, {"$ref": "#/$defs/Mode"}]},
			"when": {"$ref": "#/$defs/Loop"},
			"any": {}
		},
		"additionalProperties": {"type": "integer"},
		"$defs": {"Mode": {"type": "boolean"}, "Loop": {"$ref": "#/$defs/Loop"}}
	}`), &schema))
	for _, tc := range []struct {
		arg  string
		want any
	}{
		{"limit=2", json.Number("2")},
		{"limit=12345678901234567890", json.Number("12345678901234567890")}, // digits kept
		{"limit=2.5", json.Number("2.5")},                                   // a number: the server says it is not whole
		{"limit=ten", "ten"},                                                // not JSON: the server refuses it in its words
		{`limit="2"`, `"2"`},                                                // JSON, but a string: as typed
		{"ratio=0.25", json.Number("0.25")},
		{"exact=true", true},
		{"exact=yes", "yes"},
		{`tags=["a","b"]`, []any{"a", "b"}},
		{"tags=null", nil},
		{"tags=a", "a"},
		{`filter={"x":1}`, map[string]any{"x": json.Number("1")}},
		{"filter=[1]", "[1]"}, // an array is not an object
		{"id=007", "007"},     // a string stays a string
		{"id=true", "true"},
		{"code=7", "7"}, // a string is allowed: the value as typed
		{"size=2", json.Number("2")},
		{"mode=false", false},
		{"mode=null", nil},
		{"when=1", "1"},                 // a $ref loop says nothing
		{"any=1", "1"},                  // no type: a string, as before
		{"extra=3", json.Number("3")},   // additionalProperties
		{"limit= 2 ", json.Number("2")}, // JSON's own spaces
		{"limit=2 3", "2 3"},            // not one JSON value
		{"limit=", ""},
	} {
		got, err := parseArguments([]string{tc.arg})
		is.NoErr(err)
		k, _, _ := strings.Cut(tc.arg, "=")
		is.Equal(got.typed(schema)[k], tc.want) // tc.arg
	}
	got, err := parseArguments([]string{"limit=2", "id=7"})
	is.NoErr(err)
	is.Equal(got.typed(nil), map[string]any{"limit": "2", "id": "7"}) // a tool the server does not list: strings
}

func TestUsage(t *testing.T) {
	is := is.New(t)
	var out, errOut bytes.Buffer
	is.Equal(run(context.Background(), nil, &out, &errOut), exitUsage)
	is.True(strings.Contains(out.String(), "vurb diff <old> <new>"))
	out.Reset()
	is.Equal(run(context.Background(), []string{"inspect", "-h"}, &out, &errOut), exitOK)
	is.True(strings.Contains(errOut.String(), "-json"))
	errOut.Reset()
	is.Equal(run(context.Background(), []string{"inspect", "-bogus", "x"}, &out, &errOut), exitUsage)
	is.Equal(run(context.Background(), []string{"call", "x"}, &out, &errOut), exitUsage)
	is.True(strings.Contains(errOut.String(), "vurb call: call takes a server, a tool and its arguments\nusage: vurb call <server> <tool>"))
}

func TestPlural(t *testing.T) {
	is := is.New(t)
	is.Equal(plural(1, "tool")+" "+plural(2, "tool")+" "+plural(0, "entry"), "1 tool 2 tools 0 entries")
}
