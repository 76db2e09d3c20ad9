package model_test

import (
	"encoding/json"
	"testing"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/model"
)

func fqns[T interface{ FQN() string }](xs []T) []string {
	var out []string
	for _, x := range xs {
		out = append(out, x.FQN())
	}
	return out
}

// build makes a model by hand: a vurb tool "admin" with a group "users"
// of two actions, exposed flat and grouped, and categories that the
// search action and a prompt join.
func build(t *testing.T, opts ...model.Option) *model.Model {
	t.Helper()
	b := model.NewBuilder(model.Server{Name: "s", Version: "1"}, opts...)
	admin := b.Group(nil, model.KindTool, model.Info{Name: "admin", Description: "Administration"}, "internal")
	users := b.Group(admin, model.KindGroup, model.Info{Name: "users"})
	list := b.Action(users, model.ActionInfo{Info: model.Info{Name: "list"}, Annotations: model.Annotations{ReadOnly: true},
		InputSchema: json.RawMessage(`{"type":"object"}`)})
	ban := b.Action(users, model.ActionInfo{Info: model.Info{Name: "ban"}, Scopes: []string{"admin"}})
	platform := b.Group(nil, model.KindCategory, model.Info{Name: "platform", Title: "Platform"})
	mgmt := b.Group(b.Group(platform, model.KindCategory, model.Info{Name: "users"}), model.KindCategory, model.Info{Name: "management"})
	userFacing := b.Group(nil, model.KindCategory, model.Info{Name: "user-facing"})
	b.Join(mgmt, list, ban)
	b.Join(userFacing, list)
	b.Join(userFacing, list) // twice is once
	b.ActionTool("flat", &mcp.Tool{Name: "admin_users_list"}, list)
	b.ActionTool("flat", &mcp.Tool{Name: "admin_users_ban"}, ban)
	b.GroupTool("grouped", &mcp.Tool{Name: "admin"}, admin, []*model.Action{list, ban})
	b.Serve("grouped")
	p := b.Prompt(&mcp.Prompt{Name: "review"})
	b.Join(userFacing, p)
	m, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestBuiltModel(t *testing.T) {
	is := is.New(t)
	m := build(t)
	is.Equal(m.Exposition(), "grouped")
	is.Equal(m.Expositions(), []string{"grouped", "flat"}) // the served one first
	is.Equal(fqns(m.AllGroups()), []string{"admin", "admin.users", "platform", "platform.users", "platform.users.management", "user-facing"})
	list := m.Action("admin.users.list")
	is.Equal(fqns(list.Parents()), []string{"admin.users", "platform.users.management", "user-facing"})
	is.Equal(list.Tool().Name(), "admin")
	is.Equal(fqns(list.Tools()), []string{"admin"}) // the served grouped tool
	is.Equal(fqns(m.Group("user-facing").Tools()), []string{"admin"})
	is.Equal(fqns(m.Group("user-facing").Prompts()), []string{"review"})
	is.Equal(fqns(m.Tool("admin").Parents()), []string{"admin", "platform.users.management", "user-facing"})
	flat := m.ToolsIn("flat")
	is.Equal(fqns(flat), []string{"admin.users.list", "admin.users.ban"})
	is.Equal(fqns(flat[1].Parents()), []string{"admin.users", "platform.users.management"})
	is.Equal(m.Action("admin.users.ban").Scopes(), []string{"admin"})
	is.Equal(m.Group("admin").Tags(), []string{"internal"})
	is.True(m.Group("nope") == nil && m.Action("nope") == nil && m.Tool("nope") == nil && m.Prompt("nope") == nil && m.Resource("nope") == nil)
}

func TestSeparator(t *testing.T) {
	is := is.New(t)
	m := build(t, model.WithSeparator("::"))
	is.Equal(m.Group("platform::users::management").Path(), []string{"platform", "users", "management"})
	is.Equal(m.Action("admin.users.ban").FQN(), "admin::users::ban")
	is.Equal(m.Action("admin.users.ban").Key(), "admin.users.ban")
}

func TestBuilderIsSpent(t *testing.T) {
	is := is.New(t)
	b := model.NewBuilder(model.Server{})
	_, err := b.Build()
	is.NoErr(err)
	defer func() { is.True(recover() != nil) }()
	b.Prompt(&mcp.Prompt{Name: "late"})
}

func TestFromServer(t *testing.T) {
	is := is.New(t)
	m, err := model.FromServer(model.Server{Name: "plain"}, model.Lists{
		Tools:     []*mcp.Tool{{Name: "a"}, nil, {Name: "b"}},
		Prompts:   []*mcp.Prompt{{Name: "p"}},
		Resources: []*mcp.Resource{{URI: "file:///x", Name: "x"}},
		Templates: []*mcp.ResourceTemplate{{URITemplate: "u://{id}", Name: "u"}},
	})
	is.NoErr(err)
	is.Equal(m.Exposition(), "")
	is.Equal(fqns(m.Tools()), []string{"a", "b"})
	is.Equal(len(m.Groups()), 0)
	is.True(m.Resource("u://{id}").IsTemplate())

	_, err = model.FromServer(model.Server{}, model.Lists{Tools: []*mcp.Tool{{Name: "a"}, {Name: "a"}}})
	is.Equal(err.Error(), `two tools are named "a"`)
}
