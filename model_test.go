package vurb_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/model"
)

// modelFixture is the fixture with categories: a tool in two categories, a
// nested category tree, an action and a group joining on their own, a
// prompt and a resource.
func modelFixture(opts ...vurb.Option) (*vurb.App, []*vurb.Category) {
	f := newFixture(opts...)
	platform := f.Category("platform").Title("Platform").Describe("Everything the platform team runs")
	management := platform.Category("users").Category("management").Describe("Who may do what")
	userFacing := f.Category("user-facing").Describe("What end users reach")
	adminCat := f.Category("administration")

	f.Tool("projects").In(userFacing, adminCat) // one tool, two parents
	f.Tool("admin").In(adminCat)
	vurb.Query(f.Tool("search"), "query", ok[ListUsers]("found")).Describe("Search everything").In(userFacing, management)
	vurb.Prompt(f, "review", func(ctx context.Context, in struct {
		Code string `json:"code" validate:"required" description:"The code"`
	}) (string, error) {
		return "review " + in.Code, nil
	}).Describe("Review code").In(userFacing)
	vurb.Resource(f, "file:///readme", "readme", func(context.Context) (vurb.Contents, error) {
		return vurb.Contents{Text: "hi"}, nil
	}).In(platform)
	return f, []*vurb.Category{platform, management, userFacing, adminCat}
}

func modelFQNs[T interface{ FQN() string }](xs []T) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = x.FQN()
	}
	return out
}

func modelNames[T interface{ Name() string }](xs []T) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = x.Name()
	}
	return out
}

func TestModelTree(t *testing.T) {
	is := is.New(t)
	app, _ := modelFixture()
	m := app.Model()

	is.Equal(m.Server().Name, "fixture")
	is.Equal(m.Exposition(), "flat")
	is.Equal(m.Expositions(), []string{"flat", "grouped"})
	is.Equal(modelFQNs(m.Groups()), []string{"projects", "admin", "search", "platform", "user-facing", "administration"})
	is.Equal(modelFQNs(m.AllGroups()), []string{
		"projects", "admin", "admin.users", "admin.billing", "admin.audit", "search",
		"platform", "platform.users", "platform.users.management", "user-facing", "administration",
	})

	admin := m.Group("admin")
	is.Equal(admin.Kind(), model.KindTool)
	is.Equal(admin.Description(), "SaaS administration panel.")
	is.Equal(admin.Tags(), []string{"admin"}) // the category's selection tag is not a user tag
	is.Equal(modelNames(admin.Groups()), []string{"users", "billing", "audit"})
	users := m.Group("admin.users")
	is.Equal(users.Kind(), model.KindGroup)
	is.Equal(users.Parent(), admin)
	is.Equal(users.Root(), admin)
	is.Equal(modelFQNs(users.Actions()), []string{"admin.users.list", "admin.users.create", "admin.users.ban"})
	is.Equal(modelNames(users.Tools()), []string{"admin_users_list", "admin_users_create", "admin_users_ban"})

	mgmt := m.Group("platform.users.management")
	is.Equal(mgmt.Kind(), model.KindCategory)
	is.Equal(mgmt.Path(), []string{"platform", "users", "management"})
	is.Equal(mgmt.Root().Title(), "Platform")
	is.True(m.Group("platform").Contains(mgmt))
	is.Equal(modelFQNs(mgmt.Actions()), []string{"search.query"})
	is.Equal(modelNames(m.Group("platform").Resources()), []string{"readme"})

	// Several parents per leaf.
	search := m.Action("search.query")
	is.Equal(modelFQNs(search.Parents()), []string{"search", "platform.users.management", "user-facing"}) // categories in declaration order
	list := m.Action("projects.list")
	is.Equal(modelFQNs(list.Parents()), []string{"projects", "user-facing", "administration"})
	is.Equal(modelNames(list.Tools()), []string{"projects_list"})
	is.Equal(modelFQNs(m.Tool("projects_list").Parents()), []string{"projects", "user-facing", "administration"})
	is.Equal(modelFQNs(m.Prompt("review").Parents()), []string{"user-facing"})
	userFacing := m.Group("user-facing")
	is.Equal(modelNames(userFacing.Tools()), []string{"projects_list", "projects_create", "projects_delete", "search_query"})
	is.Equal(modelNames(userFacing.Prompts()), []string{"review"})
	is.Equal(len(m.Group("administration").Actions()), 12)
}

func TestModelActions(t *testing.T) {
	is := is.New(t)
	app, _ := modelFixture(vurb.WithPolicies(vurb.Policy{Match: "admin.audit.*", CacheControl: vurb.NoStore, Invalidates: []string{"admin.**"}}))
	m := app.Model()

	list := m.Action("projects.list")
	is.Equal(list.Name(), "list")
	is.Equal(list.Description(), "List projects in a workspace") // as authored
	is.Equal(list.Tags(), []string{"projects", "public"})
	is.Equal(list.Tool().FQN(), "projects")
	is.Equal(list.Annotations(), model.Annotations{ReadOnly: true, Destructive: model.No})
	is.Equal(list.InputSchema(), json.RawMessage(modelWireTool(app.Tools(), "projects_list").InputSchema.(json.RawMessage)))
	is.True(list.OutputSchema() != nil)

	ban := m.Action("admin.users.ban")
	is.True(ban.Annotations().IsDestructive())
	is.Equal(ban.Group().FQN(), "admin.users")
	is.Equal(ban.Sync(), model.Sync{})
	purge := m.Action("admin.audit.purge")
	is.Equal(purge.Sync(), model.Sync{Cache: "no-store", Invalidates: []string{"admin.**"}})
	export := m.Action("admin.audit.export")
	is.Equal(export.Annotations().OpenWorld, model.Yes)
	is.Equal(len(m.Actions()), 13)
}

func TestModelExpositions(t *testing.T) {
	is := is.New(t)
	for _, exp := range []vurb.Exposition{vurb.Flat, vurb.Grouped} {
		app := newFixture(vurb.WithExposition(exp))
		m := app.Model()
		is.Equal(m.Exposition(), exp.String())
		// The served tools are tools/list, exactly.
		is.Equal(modelJSON(t, model.ToolsToWire(m.Tools())), modelJSON(t, app.Tools()))
		other := vurb.Grouped
		if exp == vurb.Grouped {
			other = vurb.Flat
		}
		// The other exposition is what an app serving it lists.
		is.Equal(modelJSON(t, model.ToolsToWire(m.ToolsIn(other.String()))), modelJSON(t, newFixture(vurb.WithExposition(other)).Tools()))
	}

	m := newFixture(vurb.WithExposition(vurb.Grouped)).Model()
	admin := m.Tool("admin")
	is.Equal(admin.Exposes(), m.Group("admin"))
	is.Equal(admin.FQN(), "admin")
	is.Equal(len(admin.Actions()), 9)
	is.Equal(modelFQNs(admin.Parents()), []string{"admin"})
	is.Equal(modelNames(m.Group("admin").Tools()), []string{"admin"})
	flat := m.ToolsIn("flat")
	is.Equal(flat[3].Name(), "admin_users_list")
	is.Equal(flat[3].FQN(), "admin.users.list")
	is.Equal(modelNames(m.Action("admin.users.list").Tools()), []string{"admin"})
}

func TestModelSeparator(t *testing.T) {
	is := is.New(t)
	app, _ := modelFixture()
	m := app.Model(model.WithSeparator("/"))
	is.Equal(m.Separator(), "/")
	is.Equal(m.Group("platform/users/management").FQN(), "platform/users/management")
	is.Equal(m.Action("admin.users.ban").FQN(), "admin/users/ban") // Key stays dotted
	is.Equal(m.Tool("admin_users_ban").FQN(), "admin/users/ban")
}

func TestModelIsFrozen(t *testing.T) {
	is := is.New(t)
	app, cats := modelFixture()
	m := app.Model()
	a := m.Action("projects.list")
	tags := a.Tags()
	tags[0] = "changed"
	is.Equal(a.Tags()[0], "projects")
	groups := m.Groups()
	groups[0] = nil
	is.True(m.Groups()[0] != nil)

	defer func() { is.True(recover() != nil) }() // a category used by a built app is frozen
	cats[0].Describe("too late")
}

func TestModelPromptsAndResources(t *testing.T) {
	is := is.New(t)
	app, _ := modelFixture()
	m := app.Model()
	p := m.Prompt("review")
	is.Equal(p.Description(), "Review code")
	is.Equal(len(p.Arguments()), 1)
	is.Equal(p.Arguments()[0].Name(), "code")
	is.True(p.Arguments()[0].Required())
	r := m.Resource("file:///readme")
	is.Equal(r.Name(), "readme")
	is.True(!r.IsTemplate())
}

// TestCategoriesAreTheApps: an app owns its categories and their order,
// the order they were made in that app, whatever another app of the
// process makes or in which order members join; a member joins only its
// own app's categories.
func TestCategoriesAreTheApps(t *testing.T) {
	is := is.New(t)
	one, two := vurb.New(), vurb.New()
	a1, b2 := one.Category("a"), two.Category("b")
	b1, a2 := one.Category("b"), two.Category("a")
	is.True(one.Category("a") == a1) // made on first use
	is.True(a1 != a2)
	x1 := a1.Category("x")
	is.True(a1.Category("x") == x1)

	vurb.Query(one, "t.q", ok[ListUsers]("found")).In(b1, a1)
	vurb.Query(two, "t.q", ok[ListUsers]("found")).In(a2, b2)
	is.Equal(modelFQNs(one.Model().Groups()), []string{"t", "a", "b"})
	is.Equal(modelFQNs(two.Model().Groups()), []string{"t", "b", "a"})

	mine, other := vurb.New(), vurb.New()
	x := mine.Category("a").Category("x")
	is.Equal(mustPanic(t, func() { other.Tool("t").In(x) }),
		`vurb: category "a.x" belongs to another app; join this app's, app.Category("a")`)
	is.Equal(mustPanic(t, func() { one.Category("c") }), // one is built
		`vurb: the app is built and frozen: it cannot be changed; define every tool before Build, Call, Attach or Serve`)
}

func TestCategoryNamedLikeATool(t *testing.T) {
	is := is.New(t)
	app := newFixture()
	app.Tool("projects").In(app.Category("admin"))
	defer func() {
		r := recover()
		is.Equal(r, `vurb: category "admin" has the name of tool "admin": a fully qualified name names one group; rename the category`)
	}()
	app.Model()
}

func TestIncludeGroups(t *testing.T) {
	is := is.New(t)
	app, _ := modelFixture()
	server := &modelRecorder{}
	app.Attach(server, vurb.WithIncludeGroups("platform"))
	is.Equal(server.modelNames, []string{"search_query"}) // joined platform.users.management, so platform too

	server = &modelRecorder{}
	app.Attach(server, vurb.WithIncludeGroups("user-facing"), vurb.WithExcludeGroups("administration"))
	is.Equal(server.modelNames, []string{"search_query"})

	server = &modelRecorder{}
	app.Attach(server, vurb.WithIncludeGroups("administration"), vurb.WithIncludeTags("public"))
	is.Equal(len(server.modelNames), 12)
}

type modelRecorder struct{ modelNames []string }

func (s *modelRecorder) AddTool(t *mcp.Tool, _ mcp.ToolHandler) {
	s.modelNames = append(s.modelNames, t.Name)
}
func (s *modelRecorder) RemoveTools(...string) {}

func modelWireTool(tools []*mcp.Tool, name string) *mcp.Tool {
	i := slices.IndexFunc(tools, func(t *mcp.Tool) bool { return t.Name == name })
	if i < 0 {
		return nil
	}
	return tools[i]
}

func modelJSON(t *testing.T, v any) string {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
