package describe_test

import (
	"testing"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/describe"
)

var (
	list    = describe.Action{Key: "list", Description: "List projects", ReadOnly: true}
	create  = describe.Action{Key: "create", Description: "Create a project.", Required: []string{"workspace_id", "name"}}
	remove  = describe.Action{Key: "delete", Required: []string{"id"}, Destructive: true}
	archive = describe.Action{Key: "archive"}
)

func TestGrouped(t *testing.T) {
	idem := describe.Action{Key: "put", Description: "Replace a project", Idempotent: true}
	for _, tc := range []struct {
		name string
		tool describe.Tool
		want string
	}{
		{"marks only what not every action is", describe.Tool{Name: "projects", Description: "Manage projects.", Actions: []describe.Action{list, create, remove, archive, idem}},
			"Manage projects.\nlist: List projects (read-only)\ncreate: Create a project\ndelete: (destructive)\nput: Replace a project (idempotent)"},
		{"no description, nothing to note", describe.Tool{Name: "misc", Actions: []describe.Action{archive}}, ""},
		{"a hint every action has is the tool's", describe.Tool{Name: "jobs", Actions: []describe.Action{{Key: "purge", Destructive: true}, {Key: "wipe", Description: "Wipe", Destructive: true}}},
			"wipe: Wipe"},
		{"hierarchical", describe.Tool{
			Name: "admin", Description: "SaaS administration panel.",
			Groups: []describe.Group{{Name: "users"}, {Name: "billing"}, {Name: "empty"}},
			Actions: []describe.Action{
				{Key: "users.list"}, {Key: "users.create"}, {Key: "users.ban", Destructive: true},
				{Key: "billing.invoices"}, {Key: "billing.refund", Description: "Refund an invoice", Required: []string{"invoice_id"}, Destructive: true},
			}},
			"SaaS administration panel.\nusers.ban: (destructive)\nbilling.refund: Refund an invoice (destructive)"},
		{"cache directive all actions share", describe.Tool{Name: "countries", Actions: []describe.Action{list}, Cache: "immutable"},
			"list: List projects [Cache-Control: immutable]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is.New(t).Equal(describe.Grouped(tc.tool), tc.want)
		})
	}
}

func TestFlat(t *testing.T) {
	for _, tc := range []struct {
		action describe.Action
		want   string
	}{
		{list, "Read-only: List projects"},
		{describe.Action{Key: "delete", Description: "Delete project", Destructive: true}, "Destructive: Delete project"},
		{create, "Create a project."},
		{archive, "projects → archive"}, // nothing else to say: its place
		{describe.Action{Key: "users.ban"}, "projects → users → ban"},
		{describe.Action{Key: "purge", Destructive: true}, "Destructive"},
		{describe.Action{Key: "list", Description: "List", ReadOnly: true, Cache: "no-store"}, "Read-only: List [Cache-Control: no-store]"},
		// Explicit annotations are what the tool is listed with: the mark agrees.
		{describe.Action{Key: "list", Description: "List", ReadOnly: true, Annotations: &mcp.ToolAnnotations{DestructiveHint: ptr(true)}}, "Destructive: List"},
	} {
		is.New(t).Equal(describe.Flat("projects", tc.action), tc.want)
	}
}

func TestDescriberOrDefault(t *testing.T) {
	is := is.New(t)
	d := describe.Describer{Flat: func(tool string, a describe.Action) string { return a.Description }}.OrDefault()
	is.Equal(d.Flat("projects", list), "List projects")                                                                                                     // replaced
	is.Equal(d.Grouped(describe.Tool{Actions: []describe.Action{list, create}}), describe.Grouped(describe.Tool{Actions: []describe.Action{list, create}})) // kept
	is.True(d.TOON != nil)
}

func ptr(b bool) *bool { return &b }

func TestForAction(t *testing.T) {
	for _, tc := range []struct {
		name   string
		action describe.Action
		want   mcp.ToolAnnotations
	}{
		{"query", list, mcp.ToolAnnotations{ReadOnlyHint: true, DestructiveHint: ptr(false)}},
		{"action states destructiveHint false", create, mcp.ToolAnnotations{DestructiveHint: ptr(false)}},
		{"mutation", remove, mcp.ToolAnnotations{DestructiveHint: ptr(true)}},
		{"idempotent is opt-in", describe.Action{Key: "put", Idempotent: true, OpenWorld: ptr(true), Title: "Put"},
			mcp.ToolAnnotations{IdempotentHint: true, DestructiveHint: ptr(false), OpenWorldHint: ptr(true), Title: "Put"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is.New(t).Equal(*describe.ForAction(tc.action), tc.want)
		})
	}
}

func TestAggregate(t *testing.T) {
	idem := func(a describe.Action) describe.Action { a.Idempotent = true; return a }
	closed := func(a describe.Action) describe.Action { a.OpenWorld = ptr(false); return a }
	for _, tc := range []struct {
		name    string
		actions []describe.Action
		want    mcp.ToolAnnotations
	}{
		{"destructive if any is", []describe.Action{list, remove}, mcp.ToolAnnotations{DestructiveHint: ptr(true)}},
		{"read-only only if all are", []describe.Action{list, list}, mcp.ToolAnnotations{ReadOnlyHint: true, DestructiveHint: ptr(false)}},
		{"not read-only if one writes", []describe.Action{list, create}, mcp.ToolAnnotations{DestructiveHint: ptr(false)}},
		{"idempotent only if all are", []describe.Action{idem(list), list}, mcp.ToolAnnotations{ReadOnlyHint: true, DestructiveHint: ptr(false)}},
		{"all idempotent", []describe.Action{idem(list), idem(create)}, mcp.ToolAnnotations{IdempotentHint: true, DestructiveHint: ptr(false)}},
		{"open world if any is", []describe.Action{list, {Key: "fetch", OpenWorld: ptr(true)}}, mcp.ToolAnnotations{DestructiveHint: ptr(false), OpenWorldHint: ptr(true)}},
		{"closed only if all say so", []describe.Action{closed(list), closed(create)}, mcp.ToolAnnotations{DestructiveHint: ptr(false), OpenWorldHint: ptr(false)}},
		{"unknown if one is silent", []describe.Action{closed(list), create}, mcp.ToolAnnotations{DestructiveHint: ptr(false)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is.New(t).Equal(*describe.Aggregate(tc.actions), tc.want)
		})
	}
}

func TestTOON(t *testing.T) {
	for _, tc := range []struct {
		name string
		tool describe.Tool
		want string
	}{
		{"flat tool", describe.Tool{Name: "projects", Description: "Manage projects.", Actions: []describe.Action{list, create, remove}},
			"Manage projects.\n" +
				"actions[3|]{action|desc|marks}:\n" +
				"  list|List projects|read-only\n" +
				"  create|Create a project|\"\"\n" +
				"  delete|\"\"|destructive"},
		{"hierarchical", describe.Tool{Name: "admin",
			Groups:  []describe.Group{{Name: "users"}, {Name: "billing"}},
			Actions: []describe.Action{{Key: "users.list", Description: "List users, newest first"}, {Key: "billing.refund", Required: []string{"invoice_id"}, Destructive: true}}},
			"users[1|]{action|desc|marks}:\n" +
				"  list|List users, newest first|\"\"\n" +
				"billing[1|]{action|desc|marks}:\n" +
				"  refund|\"\"|destructive"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			got, err := describe.TOON(tc.tool)
			is.NoErr(err)
			is.Equal(got, tc.want)
		})
	}
}
