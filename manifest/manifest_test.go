package manifest_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/manifest"
	"github.com/vurb-go/vurb/model"
)

func TestCanonical(t *testing.T) {
	is := is.New(t)
	is.Equal(string(manifest.Canonical(json.RawMessage(`{ "b": 1.50, "a": ["<&>", {"d": null, "c": true}] }`))),
		`{"a":["<&>",{"c":true,"d":null}],"b":1.50}`) // keys sorted, numbers as written, no HTML escapes
	is.True(manifest.Canonical(nil) == nil)
	is.True(manifest.Canonical(json.RawMessage(`null`)) == nil)
	is.Equal(string(manifest.Canonical(json.RawMessage(`{oops`))), `{oops`)
}

// plain is a manifest of a server seen on the wire, with its lists in a
// shuffled order.
func plain(t *testing.T, order ...int) manifest.Manifest {
	t.Helper()
	all := []*mcp.Tool{
		{Name: "b", InputSchema: map[string]any{"type": "object", "properties": map[string]any{"x": map[string]any{"type": "string"}}}},
		{Name: "a", Description: "first", InputSchema: json.RawMessage(`{"type":"object"}`), Meta: mcp.Meta{"k": "v"}},
		{Name: "c", InputSchema: json.RawMessage(`{"type":"object"}`), Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
	}
	var tools []*mcp.Tool
	for _, i := range order {
		tools = append(tools, all[i])
	}
	m, err := model.FromServer(model.Server{Name: "plain", Version: "1"}, model.Lists{Tools: tools,
		Prompts: []*mcp.Prompt{{Name: "p", Arguments: []*mcp.PromptArgument{{Name: "z"}, {Name: "y", Required: true}}}}})
	if err != nil {
		t.Fatal(err)
	}
	return manifest.Of(m)
}

func TestManifestIsDeterministic(t *testing.T) {
	is := is.New(t)
	a, err := plain(t, 0, 1, 2).Marshal()
	is.NoErr(err)
	b, err := plain(t, 2, 1, 0).Marshal()
	is.NoErr(err)
	is.Equal(string(a), string(b))
	is.True(strings.HasSuffix(string(a), "}\n"))
	m, err := manifest.Parse(a)
	is.NoErr(err)
	again, err := m.Marshal()
	is.NoErr(err)
	is.Equal(string(again), string(a)) // parse and write are inverses
	is.Equal(m.Tools[0].Name, "a")
	is.Equal(m.Prompts[0].Arguments[0].Name, "z") // arguments keep their order
}

func TestParseRefusesOtherFormats(t *testing.T) {
	is := is.New(t)
	_, err := manifest.Parse([]byte(`{"format":"vurb.manifest/v2","tools":[]}`))
	is.Equal(err.Error(), `format "vurb.manifest/v2" is not "vurb.manifest/v1": written by another vurb version`)
	_, err = manifest.Parse([]byte(`{"tools":[]}`))
	is.Equal(err.Error(), `not a vurb file: it has no "format" (want "vurb.manifest/v1")`)
	_, err = manifest.Parse([]byte(`[`))
	is.True(strings.HasPrefix(err.Error(), "not a vurb manifest: "))
	_, err = manifest.Parse([]byte(`{"format":"vurb.manifest/v1.1","tools":[]}`))
	is.NoErr(err) // a later minor form reads
	_, err = manifest.ParseLock([]byte(`{"format":"vurb.manifest/v1"}`))
	is.True(err != nil)
}

func TestLock(t *testing.T) {
	is := is.New(t)
	m := plain(t, 0, 1, 2)
	l := manifest.LockOf(m)
	is.Equal(l.Format, "vurb.lock/v1")
	is.Equal(len(l.Tools), 3)
	is.Equal(len(l.Prompts), 1)
	is.True(strings.HasPrefix(l.Tools["a"], "sha256:") && len(l.Tools["a"]) == 7+64)

	// What clients do not depend on leaves the lock as it was.
	m2 := plain(t, 2, 0, 1)
	m2.Server.Version = "2"
	m2.Tools[0].Meta = json.RawMessage(`{"other":"meta"}`)
	is.Equal(manifest.LockOf(m2), l)

	// What they depend on changes one digest.
	m2.Tools[0].Description = "changed"
	drift := manifest.Check(l, manifest.LockOf(m2))
	is.Equal(len(drift), 1)
	is.Equal(drift[0].String(), "tool a changed")

	m3 := plain(t, 0, 1)
	is.Equal(manifest.Check(l, manifest.LockOf(m3)), []manifest.Drift{{Kind: "tool", Name: "c", Change: "removed"}})
	is.Equal(manifest.Check(manifest.LockOf(m3), l), []manifest.Drift{{Kind: "tool", Name: "c", Change: "added"}})

	data, err := l.Marshal()
	is.NoErr(err)
	back, err := manifest.ParseLock(data)
	is.NoErr(err)
	is.Equal(back, l)
}

// TestLockPinsTasks: turning an action into a task-only one
// (vurb.WithTaskRequired) refuses clients, so it changes the action's digest;
// an action that is no task keeps the digest it had before tasks were
// pinned.
func TestLockPinsTasks(t *testing.T) {
	is := is.New(t)
	m := manifest.Manifest{Actions: []manifest.Action{{Key: "reports.build", InputSchema: json.RawMessage(`{"type":"object"}`)}}}
	plainLock := manifest.LockOf(m)
	is.Equal(plainLock.Actions["reports.build"], // the digest of the release before tasks were pinned
		"sha256:82aad165b46da2d90434b3de94881d3ad955d386c25ebecc53848a7d024fdcdc")
	m.Actions[0].Task = &manifest.Task{}
	optional := manifest.LockOf(m)
	m.Actions[0].Task = &manifest.Task{Required: true}
	required := manifest.LockOf(m)
	is.True(optional.Actions["reports.build"] != plainLock.Actions["reports.build"])
	is.Equal(manifest.Check(optional, required), []manifest.Drift{{Kind: "action", Name: "reports.build", Change: "changed"}})

	// The field survives a round trip and a merge of what the server
	// publishes.
	m.Format = manifest.Format
	data, err := m.Marshal()
	is.NoErr(err)
	back, err := manifest.Parse(data)
	is.NoErr(err)
	is.Equal(back.Actions[0].Task, &manifest.Task{Required: true})
	merged, err := manifest.Merge(manifest.Manifest{}, back)
	is.NoErr(err)
	is.Equal(merged.Actions[0].Task, &manifest.Task{Required: true})
}

func TestAuthFromSecuritySchemes(t *testing.T) {
	is := is.New(t)
	of := func(meta mcp.Meta) *manifest.Auth {
		m, err := model.FromServer(model.Server{}, model.Lists{Tools: []*mcp.Tool{{Name: "t", Meta: meta}}})
		is.NoErr(err)
		return manifest.Of(m).Tools[0].Auth
	}
	is.True(of(nil) == nil)
	is.True(of(mcp.Meta{"securitySchemes": []any{map[string]any{"type": "noauth"}, map[string]any{"type": "oauth2", "scopes": []any{"x"}}}}) == nil)
	is.Equal(of(mcp.Meta{"securitySchemes": []any{map[string]any{"type": "oauth2", "scopes": []any{"b", "a"}}}}),
		&manifest.Auth{Required: true, Scopes: []string{"a", "b"}})
	is.True((*manifest.Auth)(nil).ScopeFree())
}

func TestMerge(t *testing.T) {
	is := is.New(t)
	observed := plain(t, 0, 1, 2)
	published := observed
	published.Exposition = "flat"
	published.Tools = append([]manifest.Tool(nil), observed.Tools...)
	published.Tools[0].Groups = []string{"user-facing"}
	published.Actions = []manifest.Action{{Key: "x.a"}}
	published.Groups = []manifest.Group{{FQN: "user-facing", Kind: "category"}}
	merged, err := manifest.Merge(observed, published)
	is.NoErr(err)
	is.Equal(merged.Exposition, "flat")
	is.Equal(merged.Tools[0].Groups, []string{"user-facing"})
	is.Equal(len(merged.Actions), 1)

	published.Tools[1].Description = "not what the server lists"
	merged, err = manifest.Merge(observed, published)
	is.Equal(err.Error(), "the manifest the server publishes at vurb://manifest does not describe the tools it lists; ignoring it")
	is.Equal(merged.Exposition, "")
}
