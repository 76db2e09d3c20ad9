package main

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/matryer/is"
	vurbapp "github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/schema/jsonschema"
)

// catalogServer serves, on stdio, the tool search test set's app (205
// actions over 15 domains, internal/search/testdata) with its manifest,
// with tool search on; with the argument plain, without it.
func catalogServer() error {
	data, err := os.ReadFile("../../internal/search/testdata/catalog.json")
	if err != nil {
		return err
	}
	var actions []struct {
		Name, Description string
		Params            []struct{ Name, Type, Description string }
		Tags              []string
	}
	if err := json.Unmarshal(data, &actions); err != nil {
		return err
	}
	opts := []vurbapp.Option{vurbapp.WithName("catalog"), vurbapp.WithVersion("1.0.0")}
	plain := len(os.Args) > 1 && os.Args[len(os.Args)-1] == "plain"
	if !plain {
		opts = append(opts, vurbapp.WithToolSearch())
	}
	app := vurbapp.New(opts...)
	for _, a := range actions {
		props := map[string]any{}
		for _, p := range a.Params {
			props[p.Name] = map[string]any{"type": p.Type, "description": p.Description}
		}
		doc, _ := json.Marshal(map[string]any{"type": "object", "properties": props, "additionalProperties": false})
		vurbapp.Query(app, a.Name, func(context.Context, json.RawMessage) (string, error) { return "ok", nil }).
			Describe(a.Description).Tags(a.Tags...).InputSchema(jsonschema.MustCodec(doc))
	}
	app.PublishManifest()
	return app.Serve(context.Background(), vurbapp.Stdio())
}

func init() { helperServers["catalog"] = catalogServer }

// TestInspectShowsTheCostOfToolSearch: vurb inspect shows what a server
// with tool search lists and what it would list without it; the two
// search tools cost at most 1,000 o200k tokens, the 205 actions listed
// flat many times that (the app cannot be grouped: a field of one action
// is named "action").
func TestInspectShowsTheCostOfToolSearch(t *testing.T) {
	is := is.New(t)
	env := []string{serverEnv + "=catalog"}
	r := vurb(t, env, "inspect", "--json", os.Args[0])
	is.Equal(r.code, 0)
	var rep inspection
	is.NoErr(json.Unmarshal([]byte(r.stdout), &rep))
	is.Equal(rep.Exposition, "flat+search")
	var names []string
	for _, tool := range rep.Tools {
		names = append(names, tool.Name)
	}
	is.Equal(names, []string{"call_tool", "search_tools"})
	is.True(rep.Tokens <= 1000)
	costs := map[string]int{}
	for _, x := range rep.Expositions {
		costs[x.Name] = x.Tokens
	}
	is.Equal(costs["flat+search"], rep.Tokens)
	is.True(costs["flat"] > 20*rep.Tokens)
	_, grouped := costs["grouped"]
	is.True(!grouped) // audit_log.search has a field named like grouped exposition's discriminator
	t.Logf("tools/list: %d tokens with tool search, %d flat without", rep.Tokens, costs["flat"])

	r = vurb(t, env, "inspect", os.Args[0])
	is.Equal(r.code, 0)
	is.True(strings.Contains(r.stdout, "flat+search exposition"))
}
