package vurb_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/observe"
)

type SprintRef struct {
	SprintID string `json:"sprint_id" validate:"required" description:"Sprint ID"`
}

// trackerApp is a sprint/task tracker with cached, stale and invalidating
// actions, declared both per action and by policy.
func trackerApp(exp vurb.Exposition, opts ...vurb.Option) *vurb.App {
	app := vurb.New(append([]vurb.Option{
		vurb.WithExposition(exp),
		vurb.WithPolicies(
			vurb.Policy{Match: "countries.*", CacheControl: vurb.Immutable},
			vurb.Policy{Match: "tasks.update", Invalidates: []string{"tasks.*", "sprints.*"}},
		),
	}, opts...)...)
	vurb.Query(app, "countries.list", ok[noInput]("FR, JP")).Describe("List country codes.")
	vurb.Query(app, "countries.get", ok[noInput]("FR")).Describe("Get a country.")
	vurb.Query(app, "sprints.list", ok[noInput]("s1")).Describe("List sprints.").Stale()
	vurb.Action(app, "sprints.create", ok[noInput]("created s2")).Describe("Create a sprint.").Invalidates("sprints.*")
	vurb.Query(app, "tasks.list", ok[noInput]("t1")).Describe("List tasks.").Cached()
	vurb.Action(app, "tasks.update", func(_ context.Context, in SprintRef) (string, error) {
		if in.SprintID == "closed" {
			return "", errors.New("sprint closed is closed")
		}
		return "updated", nil
	}).Describe("Update a task.")
	return app
}

func descriptions(t *testing.T, cs *mcp.ClientSession) map[string]string {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, tool := range res.Tools {
		out[tool.Name] = tool.Description
	}
	return out
}

func TestCacheDirectivesFlat(t *testing.T) {
	is := is.New(t)
	d := descriptions(t, connect(t, trackerApp(vurb.Flat), nil))
	is.Equal(d["countries_list"], "Read-only: List country codes. [Cache-Control: immutable]")
	is.Equal(d["sprints_list"], "Read-only: List sprints. [Cache-Control: no-store]")
	is.Equal(d["tasks_list"], "Read-only: List tasks. [Cache-Control: immutable]")
	is.Equal(d["sprints_create"], "Create a sprint.") // no default, no match: no decoration
}

func TestCacheDirectivesGrouped(t *testing.T) {
	is := is.New(t)
	d := descriptions(t, connect(t, trackerApp(vurb.Grouped), nil))
	is.True(strings.HasSuffix(d["countries"], " [Cache-Control: immutable]")) // both actions agree
	is.True(!strings.Contains(d["sprints"], "Cache-Control"))                 // list and create disagree
	is.True(!strings.Contains(d["tasks"], "Cache-Control"))
}

func TestDefaultCacheControl(t *testing.T) {
	is := is.New(t)
	d := descriptions(t, connect(t, trackerApp(vurb.Flat, vurb.WithDefaultCacheControl(vurb.NoStore)), nil))
	is.Equal(d["sprints_create"], "Create a sprint. [Cache-Control: no-store]")
	is.Equal(d["countries_get"], "Read-only: Get a country. [Cache-Control: immutable]") // the policy wins
}

func TestInvalidation(t *testing.T) {
	for _, exp := range []vurb.Exposition{vurb.Flat, vurb.Grouped} {
		t.Run(exp.String(), func(t *testing.T) {
			is := is.New(t)
			var mu sync.Mutex
			var events []observe.Event
			app := trackerApp(exp, vurb.WithObserver(func(_ context.Context, e observe.Event) {
				if e.Kind == observe.CacheInvalidated {
					mu.Lock()
					events = append(events, e)
					mu.Unlock()
				}
			}))
			cs := connect(t, app, nil)
			name, args := "tasks_update", `{"sprint_id":"s1"}`
			failing := `{"sprint_id":"closed"}`
			if exp == vurb.Grouped {
				name, args, failing = "tasks", `{"action":"update","sprint_id":"s1"}`, `{"action":"update","sprint_id":"closed"}`
			}
			res, err := callRaw(t, cs, name, args)
			is.NoErr(err)
			is.Equal(len(res.Content), 2)
			// The result first, then the notice: a client that shows one block
			// shows the result.
			is.Equal(res.Content[0].(*mcp.TextContent).Text, "updated")
			is.Equal(res.Content[1].(*mcp.TextContent).Text, "[System: Cache invalidated for tasks.*, sprints.* — caused by tasks.update]")

			res, err = callRaw(t, cs, name, failing) // a failed call invalidates nothing
			is.NoErr(err)
			is.True(res.IsError)
			is.Equal(text(res), errPrefix(exp, "tasks", "update")+"sprint closed is closed")

			res, err = callRaw(t, cs, name, `{"action":"update"}`) // nor does a refused one
			is.NoErr(err)
			is.True(res.IsError)
			is.True(!strings.Contains(text(res), "System"))

			mu.Lock()
			defer mu.Unlock()
			is.Equal(len(events), 1)
			is.Equal(events[0].Key, "tasks.update")
			is.Equal(events[0].Patterns, []string{"tasks.*", "sprints.*"})
			is.True(!events[0].Time.IsZero())
		})
	}
}

func TestPerActionInvalidation(t *testing.T) {
	is := is.New(t)
	res := call(t, trackerApp(vurb.Flat), "sprints_create", "")
	is.Equal(text(res), "created s2\n[System: Cache invalidated for sprints.* — caused by sprints.create]")
}

func TestPolicyValidation(t *testing.T) {
	for _, tc := range []struct {
		name   string
		policy vurb.Policy
		want   string
	}{
		{"empty pattern", vurb.Policy{Match: "", CacheControl: vurb.Immutable}, `vurb: policy 1 (Match ""): glob "": empty pattern`},
		{"bad glob", vurb.Policy{Match: "tasks..x"}, `vurb: policy 1 (Match "tasks..x"): glob "tasks..x": empty segment at position 2`},
		{"unknown directive", vurb.Policy{Match: "tasks.*", CacheControl: "max-age=60"}, `vurb: policy 1 (Match "tasks.*"): unknown cache directive "max-age=60"; use vurb.Immutable or vurb.NoStore`},
		{"bad invalidation", vurb.Policy{Match: "tasks.*", Invalidates: []string{"a b"}}, `vurb: policy 1 (Match "tasks.*"): invalid invalidation pattern: glob "a b"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			app := vurb.New(vurb.WithPolicies(tc.policy))
			vurb.Query(app, "tasks.list", ok[noInput]("x"))
			msg := mustPanic(t, app.Build)
			if !strings.HasPrefix(msg, tc.want) {
				t.Fatalf("panic message\n got: %s\nwant: %s…", msg, tc.want)
			}
		})
	}
}

// A policy an earlier, broader one shadows would never apply: Build
// refuses it, saying which and how to fix it; a narrower one first is fine.
func TestShadowedPolicyIsADefinitionError(t *testing.T) {
	for _, tc := range []struct {
		name     string
		patterns []string
		want     string
	}{
		{"none", []string{"sprints.get", "tasks.*"}, ""},
		{"broader first", []string{"sprints.*", "sprints.get"}, `vurb: policy 2 (Match "sprints.get") never applies: policy 1 (Match "sprints.*") matches every key it matches`},
		{"double star", []string{"sprints.**", "sprints.*"}, `vurb: policy 2 (Match "sprints.*") never applies: policy 1 (Match "sprints.**")`},
		{"narrow first is fine", []string{"sprints.get", "sprints.*"}, ""},
		{"everything", []string{"**", "tasks.update"}, `vurb: policy 2 (Match "tasks.update") never applies: policy 1 (Match "**")`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			var policies []vurb.Policy
			for _, p := range tc.patterns {
				policies = append(policies, vurb.Policy{Match: p})
			}
			app := vurb.New(vurb.WithPolicies(policies...))
			vurb.Query(app, "tasks.list", ok[noInput]("x"))
			if tc.want == "" {
				app.Build()
				return
			}
			msg := mustPanic(t, app.Build)
			is.True(strings.HasPrefix(msg, tc.want))
		})
	}
}

func TestObserverEvents(t *testing.T) {
	is := is.New(t)
	var mu sync.Mutex
	var seen []string
	app := newFixture(vurb.WithObserver(func(_ context.Context, e observe.Event) {
		mu.Lock()
		defer mu.Unlock()
		switch e.Kind {
		case observe.CallFinished:
			seen = append(seen, e.Kind.String()+" "+e.Key+" "+string(e.Outcome))
			is.True(e.Duration > 0)
			is.True(e.RequestID != "")
		case observe.ToolRegistered:
			seen = append(seen, e.Kind.String()+" "+e.Name)
		default:
			seen = append(seen, e.Kind.String()+" "+e.Key)
		}
	}))
	app.Build()
	call(t, app, "projects_list", `{"workspace_id":"w"}`)
	call(t, app, "projects_list", `{"workspace_id":"w","limit":0}`)
	call(t, app, "projects_delete", `{"workspace_id":"w","id":"missing"}`)
	is.Equal(seen[:3], []string{"tool_registered projects_list", "tool_registered projects_create", "tool_registered projects_delete"})
	is.Equal(seen[12:], []string{
		"call_started projects.list", "call_finished projects.list none",
		"call_started projects.list", "call_finished projects.list validation",
		"call_started projects.delete", "call_finished projects.delete handler",
	})
}
