package main

import (
	"bytes"
	"context"
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
	is.Equal(got, map[string]any{"name": "Apollo", "limit": float64(10), "tags": []any{"a"}, "note": "a=b", "id": "7"})
	got, err = parseArguments([]string{`{"limit": 5}`})
	is.NoErr(err)
	is.Equal(got, map[string]any{"limit": float64(5)})
	got, err = parseArguments(nil)
	is.NoErr(err)
	is.Equal(got, map[string]any{})
	_, err = parseArguments([]string{"limit:=ten"})
	is.Equal(err.Error(), `argument limit: "ten" is not JSON (use limit=ten for a string)`)
	_, err = parseArguments([]string{"oops"})
	is.Equal(err.Error(), `argument "oops" is not key=value, key:=json or a JSON object`)
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
