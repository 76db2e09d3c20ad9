//go:build go1.27

package vurb

import "context"

// From Go 1.27, which allows type parameters on methods, the builders are
// also methods of the namespace they attach to: app.Query("projects.list",
// listProjects) reads as what a Go developer types after "app.". Each is a
// thin call of the function of the same name (one implementation, two
// spellings), returning the same *ActionDef; Go 1.26 users write
// vurb.Query(app, ...).

// Query declares a read-only action on the app; name is "tool.action" or
// "tool.group.action". It is vurb.Query(a, name, handler):
//
//	app.Query("weather.get", getWeather).Describe("Current weather for a city")
func (a *App) Query[In, Out any](name string, handler func(ctx context.Context, in In) (Out, error)) *ActionDef {
	return Query(a, name, handler)
}

// Action declares an action on the app that changes state without
// destroying any. It is vurb.Action(a, name, handler).
func (a *App) Action[In, Out any](name string, handler func(ctx context.Context, in In) (Out, error)) *ActionDef {
	return Action(a, name, handler)
}

// Mutation declares a destructive action on the app. It is
// vurb.Mutation(a, name, handler).
func (a *App) Mutation[In, Out any](name string, handler func(ctx context.Context, in In) (Out, error)) *ActionDef {
	return Mutation(a, name, handler)
}

// Query declares a read-only action of the tool. It is
// vurb.Query(t, name, handler):
//
//	projects := app.Tool("projects")
//	projects.Query("list", listProjects)
func (t *Tool) Query[In, Out any](name string, handler func(ctx context.Context, in In) (Out, error)) *ActionDef {
	return Query(t, name, handler)
}

// Action declares an action of the tool that changes state without
// destroying any. It is vurb.Action(t, name, handler).
func (t *Tool) Action[In, Out any](name string, handler func(ctx context.Context, in In) (Out, error)) *ActionDef {
	return Action(t, name, handler)
}

// Mutation declares a destructive action of the tool. It is
// vurb.Mutation(t, name, handler).
func (t *Tool) Mutation[In, Out any](name string, handler func(ctx context.Context, in In) (Out, error)) *ActionDef {
	return Mutation(t, name, handler)
}

// Query declares a read-only action of the group. It is
// vurb.Query(g, name, handler):
//
//	users := app.Tool("admin").Group("users", "User accounts")
//	users.Query("list", listUsers)
func (g *Group) Query[In, Out any](name string, handler func(ctx context.Context, in In) (Out, error)) *ActionDef {
	return Query(g, name, handler)
}

// Action declares an action of the group that changes state without
// destroying any. It is vurb.Action(g, name, handler).
func (g *Group) Action[In, Out any](name string, handler func(ctx context.Context, in In) (Out, error)) *ActionDef {
	return Action(g, name, handler)
}

// Mutation declares a destructive action of the group. It is
// vurb.Mutation(g, name, handler).
func (g *Group) Mutation[In, Out any](name string, handler func(ctx context.Context, in In) (Out, error)) *ActionDef {
	return Mutation(g, name, handler)
}

// Prompt declares a prompt template of the app. It is
// vurb.Prompt(a, name, handler):
//
//	app.Prompt("code_review", review).Describe("Review code")
func (a *App) Prompt[Args, Out any](name string, handler func(ctx context.Context, args Args) (Out, error)) *PromptDef {
	return Prompt(a, name, handler)
}

// Resource declares a static resource of the app. It is
// vurb.Resource(a, uri, name, read).
func (a *App) Resource(uri, name string, read func(ctx context.Context) (Contents, error)) *ResourceDef {
	return Resource(a, uri, name, read)
}

// ResourceTemplate declares a family of resources of the app. It is
// vurb.ResourceTemplate(a, uriTemplate, name, read).
func (a *App) ResourceTemplate(uriTemplate, name string, read func(ctx context.Context, vars map[string]string) (Contents, error)) *ResourceDef {
	return ResourceTemplate(a, uriTemplate, name, read)
}
