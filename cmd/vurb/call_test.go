package main

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestWriteResultIsOneDocument: a result with structured content and a
// text that is not its JSON (a summary for a person, TOON) printed both,
// and jq read two documents. Now the structured content stands alone, and
// a result without any prints its content.
func TestWriteResultIsOneDocument(t *testing.T) {
	is := is.New(t)
	text := func(s string) mcp.Content { return &mcp.TextContent{Text: s} }
	for _, tc := range []struct {
		name string
		res  mcp.CallToolResult
		want string
	}{
		{"summary and structure", mcp.CallToolResult{Content: []mcp.Content{text("found 2 projects")},
			StructuredContent: map[string]any{"n": 2}}, "{\n  \"n\": 2\n}\n"},
		{"the text is the JSON", mcp.CallToolResult{Content: []mcp.Content{text(`{"n":2}`)},
			StructuredContent: map[string]any{"n": 2}}, "{\n  \"n\": 2\n}\n"},
		{"an error with structure", mcp.CallToolResult{IsError: true, Content: []mcp.Content{text("no")},
			StructuredContent: map[string]any{"error": "no"}}, "{\n  \"error\": \"no\"\n}\n"},
		{"text alone", mcp.CallToolResult{Content: []mcp.Content{text("hello"), text("again")}}, "hello\nagain\n"},
		{"other content", mcp.CallToolResult{Content: []mcp.Content{text("see"),
			&mcp.ResourceLink{URI: "file:///a", Name: "a"}, &mcp.ImageContent{MIMEType: "image/png", Data: []byte{1, 2}}}},
			"see\n[resource link file:///a]\n[image image/png, 2 bytes]\n"},
		{"nothing", mcp.CallToolResult{}, ""},
	} {
		var out bytes.Buffer
		writeResult(&out, &tc.res)
		is.Equal(out.String(), tc.want) // tc.name
	}
}

// TestCallForScripts runs vurb call as a script does: one JSON document on
// stdout, key=value read by the tool's input schema (limit=2 was refused
// as a string), a string field kept a string.
func TestCallForScripts(t *testing.T) {
	is := is.New(t)
	env := []string{serverEnv + "=typed"}
	server := os.Args[0]

	r := vurb(t, env, "call", server, "search", "query=10", "limit=2", "ratio=0.5", "exact=true", `tags=["a","b"]`, `filter={"x":1}`)
	is.Equal(r.code, 0)
	var got map[string]any
	dec := json.NewDecoder(strings.NewReader(r.stdout))
	is.NoErr(dec.Decode(&got))
	is.True(!dec.More()) // one document
	is.Equal(got, map[string]any{"query": "10", "limit": float64(2), "ratio": 0.5, "exact": true,
		"tags": []any{"a", "b"}, "filter": map[string]any{"x": float64(1)}})
	is.True(!strings.Contains(r.stdout, "found")) // the text for a person is left out

	r = vurb(t, env, "call", server, "search", "query:=\"q\"", "limit:=3") // explicit JSON still works
	is.Equal(r.code, 0)
	is.Equal(r.stdout, "{\n  \"limit\": 3,\n  \"query\": \"q\"\n}\n")
	r = vurb(t, env, "call", server, "search", `{"query": "q", "limit": 4}`)
	is.Equal(r.code, 0)
	is.Equal(r.stdout, "{\n  \"limit\": 4,\n  \"query\": \"q\"\n}\n")
	r = vurb(t, env, "call", server, "search", "query=q", "limit=2", "--json") // -json: the whole result, one document
	is.Equal(r.code, 0)
	var res mcp.CallToolResult
	is.NoErr(json.Unmarshal([]byte(r.stdout), &res))
	is.Equal(res.Content[0].(*mcp.TextContent).Text, `found 2 results for "q"`)
}

// TestCallExitStatus: an unknown tool exited 3, "could not reach the
// server", as a server that is down does. A request the server answered
// with a protocol error now exits 4; a transport that broke still exits 3;
// a tool that failed exits 1.
func TestCallExitStatus(t *testing.T) {
	is := is.New(t)
	r := vurb(t, []string{serverEnv + "=typed"}, "call", os.Args[0], "nope", "limit=2")
	is.Equal(r.code, exitRefused)
	is.Equal(r.stdout, "")
	is.True(strings.HasPrefix(r.stderr, `vurb call: the server refused tools/call nope: unknown tool "nope" (JSON-RPC error -32602)`))

	r = vurb(t, nil, "call", path("quickstart"), "nope") // vurb's own server
	is.Equal(r.code, exitRefused)
	is.True(strings.Contains(r.stderr, `vurb call: the server refused tools/call nope: unknown tool "nope"`))

	r = vurb(t, []string{serverEnv + "=hangup"}, "call", os.Args[0], "wait", "n=1")
	is.Equal(r.code, exitTrouble)
	is.True(strings.HasPrefix(r.stderr, "vurb call: tools/call wait: "))

	r = vurb(t, nil, "call", path("quickstart"), "projects_create", "name=Go")
	is.Equal(r.code, exitNo)
	r = vurb(t, nil, "call", path("quickstart"), "projects_list", "limit=2") // an integer, by its schema
	is.Equal(r.code, exitOK)
	is.Equal(r.stdout, "{\n  \"projects\": []\n}\n")
}
