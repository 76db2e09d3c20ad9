package vurb_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb"
)

// mustPanic runs f and returns its panic message, failing if f returns.
func mustPanic(t *testing.T, f func()) (msg string) {
	t.Helper()
	defer func() {
		r := recover()
		if r == nil {
			t.Fatal("expected a panic")
		}
		msg = fmt.Sprint(r)
	}()
	f()
	return ""
}

type noInput = struct{}

func TestDefinitionRules(t *testing.T) {
	for _, tc := range []struct {
		name   string
		define func()
		want   string
	}{
		{"dot in action name", func() {
			vurb.Query(vurb.New().Tool("projects"), "list.all", ok[noInput]("x"))
		}, `vurb: invalid action name "list.all": it contains a dot`},
		{"dot in group name", func() {
			vurb.New().Tool("admin").Group("users.v2", "")
		}, `vurb: tool "admin": invalid group name "users.v2": it contains a dot`},
		{"bad tool name", func() {
			vurb.New().Tool("my tool")
		}, `vurb: invalid tool name "my tool": it contains ' '`},
		{"app name of four segments", func() {
			vurb.Query(vurb.New(), "a.b.c.d", ok[noInput]("x"))
		}, `vurb: action name "a.b.c.d" given to the app must be "tool", "tool.action" or "tool.group.action"`},
		{"group after actions", func() {
			tool := vurb.New().Tool("platform")
			vurb.Query(tool, "status", ok[noInput]("x"))
			tool.Group("users", "")
		}, `vurb: tool "platform" already holds actions directly (status); it cannot also hold groups`},
		{"action after groups", func() {
			tool := vurb.New().Tool("platform")
			vurb.Query(tool.Group("users", ""), "list", ok[noInput]("x"))
			vurb.Query(tool, "status", ok[noInput]("x"))
		}, `vurb: tool "platform" already holds groups (users); it cannot also hold action "status" directly`},
		{"duplicate action", func() {
			f := vurb.New()
			vurb.Query(f, "projects.list", ok[noInput]("x"))
			vurb.Query(f, "projects.list", ok[noInput]("y"))
		}, `vurb: tool "projects" already has an action "list": action keys must be unique`},
		{"duplicate group action", func() {
			g := vurb.New().Tool("admin").Group("users", "")
			vurb.Query(g, "list", ok[noInput]("x"))
			vurb.Mutation(g, "list", ok[noInput]("y"))
		}, `vurb: tool "admin" already has an action "users.list"`},
		{"duplicate group", func() {
			tool := vurb.New().Tool("admin")
			tool.Group("users", "")
			tool.Group("users", "")
		}, `vurb: tool "admin" already has a group "users"`},
		{"nil namespace", func() {
			vurb.Query[noInput, string]((*vurb.Tool)(nil), "list", ok[noInput]("x"))
		}, `vurb: action "list": nil namespace; pass the app, a tool or a group`},
		{"nil handler", func() {
			vurb.Query[noInput, string](vurb.New(), "projects.list", nil)
		}, `vurb: action "projects.list": nil handler`},
		{"non-struct input", func() {
			vurb.Query(vurb.New(), "projects.list", func(context.Context, string) (string, error) { return "", nil })
		}, `vurb: action "projects.list": the handler's input must be a struct or a pointer to one (got string)`},
		{"nil middleware", func() {
			vurb.New().Use(nil)
		}, `vurb: nil middleware at position 0 of app Use`},
		{"wire name too long", func() {
			f := vurb.New()
			vurb.Query(f, strings.Repeat("t", 100)+"."+strings.Repeat("a", 30), ok[noInput]("x"))
			f.Build()
		}, `is not a valid MCP tool name: it is 131 characters long; the limit is 128`},
		{"flat names collide", func() {
			f := vurb.New()
			vurb.Query(f, "a_b.c", ok[noInput]("x"))
			vurb.Query(f, "a.b_c", ok[noInput]("y"))
			f.Build()
		}, `vurb: two tools share the wire name "a_b_c"`},
		{"tool without actions", func() {
			f := vurb.New()
			f.Tool("empty")
			f.Build()
		}, `vurb: tool "empty" has no actions`},
		{"action lacks common fields", func() {
			f := vurb.New()
			tool := f.Tool("projects").Common(Workspace{})
			vurb.Query(tool, "list", ok[ListUsers]("x"))
			f.Build()
		}, `vurb: action "list" of tool "projects" lacks the common field "workspace_id": embed vurb_test.Workspace in its input vurb_test.ListUsers`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msg := mustPanic(t, tc.define)
			if !strings.Contains(msg, tc.want) {
				t.Fatalf("panic message\n got: %s\nwant: …%s…", msg, tc.want)
			}
		})
	}
}

func TestBuiltAppIsFrozen(t *testing.T) {
	f := newFixture()
	f.Build()
	for _, tc := range []struct {
		name   string
		change func()
		want   string
	}{
		{"describe tool", func() { f.Tool("projects").Describe("changed") }, `vurb: tool "projects" is built and frozen: it cannot be changed`},
		{"new action", func() { vurb.Query(f.Tool("projects"), "count", ok[noInput]("1")) }, `vurb: tool "projects" is built and frozen`},
		{"new tool", func() { f.Tool("platform") }, `vurb: the app is built and frozen`},
		{"app middleware", func() { f.Use(func(next vurb.Handler) vurb.Handler { return next }) }, `vurb: the app is built and frozen`},
		{"group", func() { f.Tool("admin").Group("extra", "") }, `vurb: tool "admin" is built and frozen`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msg := mustPanic(t, tc.change)
			if !strings.Contains(msg, tc.want) {
				t.Fatalf("panic message\n got: %s\nwant: …%s…", msg, tc.want)
			}
		})
	}
}

func TestBuildIsCached(t *testing.T) {
	is := is.New(t)
	f := newFixture()
	f.Build()
	first := f.Tools()
	f.Build()
	second := f.Tools()
	is.Equal(len(first), len(second))
	is.True(&first[0] == &second[0]) // the same compiled plan, not a rebuild
}
