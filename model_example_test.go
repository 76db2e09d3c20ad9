package vurb_test

import (
	"context"
	"fmt"

	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/manifest"
	"github.com/vurb-go/vurb/model"
)

type ModelSearchInput struct {
	Query string `json:"query" validate:"required" description:"What to look for"`
}

func modelFind(context.Context, ModelSearchInput) (string, error) { return "found", nil }

// A tool can sit in several categories: search is both user-facing and an
// admin tool. The model shows the vurb tools, their actions and the
// categories as one tree, each leaf with all its parents.
func ExampleApp_Model() {
	app := vurb.New(vurb.WithName("shop"))
	userFacing := app.Category("user-facing")
	admin := app.Category("admin-panel")
	tool := app.Tool("search").Describe("Find things").In(userFacing, admin)
	vurb.Query(tool, "products", modelFind).Describe("Search the catalogue")
	vurb.Query(tool, "orders", modelFind).Describe("Search orders").In(app.Category("support"))

	m := app.Model()
	for _, g := range m.AllGroups() {
		fmt.Println(g.Kind(), g.FQN(), modelNames(g.Actions()))
	}
	orders := m.Action("search.orders")
	fmt.Println(orders.FQN(), "in", modelFQNs(orders.Parents()))
	fmt.Println("served", m.Exposition(), modelNames(m.Tools()), "else grouped", modelNames(m.ToolsIn("grouped")))
	// Output:
	// tool search [products orders]
	// category user-facing [products orders]
	// category admin-panel [products orders]
	// category support [orders]
	// search.orders in [search user-facing admin-panel support]
	// served flat [search_products search_orders] else grouped [search]
}

// Categories nest; the fully qualified name joins them with the model's
// separator.
func ExampleCategory_Category() {
	app := vurb.New()
	management := app.Category("platform").Category("users").Category("management")
	vurb.Mutation(app, "users.revoke", modelFind).In(management)

	fmt.Println(management.FQN())
	fmt.Println(app.Model(model.WithSeparator("/")).Group("platform/users/management").FQN())
	// Output:
	// platform.users.management
	// platform/users/management
}

// A server can expose only some categories, as it can only some tags.
func ExampleWithIncludeGroups() {
	app := vurb.New()
	public := app.Category("public")
	vurb.Query(app, "catalog.search", modelFind).In(public)
	vurb.Mutation(app, "catalog.purge", modelFind)

	server := app.NewServer(vurb.WithIncludeGroups("public"))
	_ = server // serves catalog_search only
	fmt.Println(modelNames(app.Model().Group("public").Tools()))
	// Output:
	// [catalog_search]
}

// The manifest is the model in canonical JSON; a vurb app can also publish
// it to clients (vurb inspect reads it to show both expositions).
func ExampleApp_PublishManifest() {
	app := vurb.New(vurb.WithName("shop"), vurb.WithExposition(vurb.Grouped))
	vurb.Query(app, "catalog.search", modelFind)
	vurb.Query(app, "catalog.get", modelFind)
	app.PublishManifest()

	m := manifest.Of(app.Model())
	fmt.Println(m.Exposition, len(m.Tools), "tool;", m.Alternates[0].Name, len(m.Alternates[0].Tools), "tools")
	fmt.Println(m.Resources[0].URI, m.Resources[0].MIMEType)
	// Output:
	// grouped 1 tool; flat 2 tools
	// vurb://manifest application/json
}
