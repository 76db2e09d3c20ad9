package vurb_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/manifest"
)

// TestManifestGolden pins the manifest of the fixture with categories: the
// canonical JSON a team commits and diffs in CI.
func TestManifestGolden(t *testing.T) {
	is := is.New(t)
	app, _ := modelFixture()
	data, err := manifest.Of(app.Model()).Marshal()
	is.NoErr(err)
	golden(t, "manifest.golden.json", data)

	// Deterministic: another app declared the same way writes the same bytes.
	again, _ := modelFixture()
	data2, err := manifest.Of(again.Model()).Marshal()
	is.NoErr(err)
	is.Equal(string(data2), string(data))
}

// TestManifestOfEitherExposition: the manifest of an app served grouped
// lists the grouped tools and keeps the flat ones as the alternate; the
// actions are the same.
func TestManifestOfEitherExposition(t *testing.T) {
	is := is.New(t)
	flat := manifest.Of(newFixture().Model())
	grouped := manifest.Of(newFixture(vurb.WithExposition(vurb.Grouped)).Model())
	is.Equal(grouped.Exposition, "grouped")
	is.Equal(len(grouped.Tools), 2)
	is.Equal(grouped.Alternates[0].Name, "flat")
	is.Equal(modelJSON(t, grouped.Alternates[0].Tools), modelJSON(t, flat.Tools))
	is.Equal(modelJSON(t, grouped.Actions), modelJSON(t, flat.Actions))
	is.Equal(modelJSON(t, grouped.Groups), modelJSON(t, flat.Groups))
}

// TestPublishManifest reads the manifest a server publishes, through a
// client, and finds the app's.
func TestPublishManifest(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	app, _ := modelFixture()
	app.PublishManifest(vurb.WithIncludeGroups("user-facing"))
	cs := connectServer(t, app.NewServer(vurb.WithIncludeGroups("user-facing")))
	res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: manifest.URI})
	is.NoErr(err)
	is.Equal(res.Contents[0].MIMEType, "application/json")
	published, err := manifest.Parse([]byte(res.Contents[0].Text))
	is.NoErr(err)

	var listed []*mcp.Tool
	for tool, err := range cs.Tools(ctx, nil) {
		is.NoErr(err)
		listed = append(listed, tool)
	}
	is.Equal(len(published.Tools), len(listed)) // only what the server exposes
	is.Equal(len(published.Tools), 4)
	var groups []string
	for _, g := range published.Groups {
		groups = append(groups, g.FQN)
	}
	// Nothing the server hides is named: not the admin tool nor its groups.
	// The administration category stays: projects, which it exposes, is in it.
	is.Equal(groups, []string{"administration", "platform", "platform.users", "platform.users.management", "projects", "search", "user-facing"})
	is.Equal(len(published.Alternates[0].Tools), 2) // grouped: projects and search
}

// connectServer connects a go-sdk client to server in memory, both closed
// with the test.
func connectServer(t *testing.T, server *mcp.Server) *mcp.ClientSession {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := server.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// TestManifestScopes: the scopes RequireScopes asks for are in the
// manifest, of the actions and of their wire tools, so that a contract diff
// sees a scope a call newly needs as a breaking change.
func TestManifestScopes(t *testing.T) {
	is := is.New(t)
	release := func(scoped bool, opts ...vurb.Option) manifest.Manifest {
		app := vurb.New(opts...)
		vurb.Query(app, "projects.list", func(context.Context, struct{}) (string, error) { return "", nil })
		del := vurb.Mutation(app, "projects.delete", func(context.Context, struct{}) (string, error) { return "", nil })
		if scoped {
			del.RequireScopes("projects:write")
		}
		return manifest.Of(app.Model())
	}
	v1, v2 := release(false), release(true)
	for _, a := range v2.Actions {
		if a.Key == "projects.delete" {
			is.True(a.Auth != nil) // the scoped action says so
			is.Equal(a.Auth.Scopes, []string{"projects:write"})
		} else {
			is.True(a.Auth.ScopeFree())
		}
	}
	changes := manifest.Diff(v1, v2)
	is.Equal(len(changes) > 0, true)
	breaking := false
	for _, c := range changes {
		if c.Kind == manifest.ScopeFreeRemoved && c.Breaking && strings.Contains(c.Reason, "projects:write") {
			breaking = true
		}
	}
	is.True(breaking) // scope-free access removed, said as breaking

	// Grouped, the tool is open while one of its actions is.
	g := release(true, vurb.WithExposition(vurb.Grouped))
	is.True(g.Tools[0].Auth.ScopeFree())
}

// TestManifestTaskRequired: making an action task-only refuses 2026-07-28
// clients that do not declare the tasks extension, so the manifest states
// it and a diff calls it breaking (it changed neither the manifest nor the
// lock).
func TestManifestTaskRequired(t *testing.T) {
	is := is.New(t)
	release := func(required bool) manifest.Manifest {
		app := vurb.New()
		opts := []vurb.TaskOption{}
		if required {
			opts = append(opts, vurb.WithTaskRequired())
		}
		vurb.Mutation(app, "reports.build", func(context.Context, struct{}) (string, error) { return "", nil }).Task(opts...)
		return manifest.Of(app.Model())
	}
	v1, v2 := release(false), release(true)
	is.True(v1.Actions[0].Task != nil && !v1.Actions[0].Task.Required)
	is.True(v2.Actions[0].Task != nil && v2.Actions[0].Task.Required)
	is.True(manifest.Breaking(manifest.Diff(v1, v2)))
	l1, l2 := manifest.LockOf(v1), manifest.LockOf(v2)
	is.True(!reflect.DeepEqual(l1, l2)) // the lock pins it too
}
