//go:build go1.27

package vurb_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/vurbtest"
)

// newFixtureMethods is newFixture spelled with the builder methods of Go
// 1.27: the same app, so the same golden files.
func newFixtureMethods(opts ...vurb.Option) *vurb.App {
	f := vurb.New(append([]vurb.Option{vurb.WithName("fixture"), vurb.WithVersion("1.0.0")}, opts...)...)

	projects := f.Tool("projects").Describe("Manage projects.").Common(Workspace{}).Tags("projects")
	projects.Query("list", listProjects).Describe("List projects in a workspace").Tags("public")
	projects.Action("create", createProject).Describe("Create a project")
	projects.Mutation("delete", deleteProject).Describe("Delete a project")

	admin := f.Tool("admin").Describe("SaaS administration panel.").Tags("admin")
	users := admin.Group("users", "User lifecycle management")
	users.Query("list", ok[ListUsers]("users")).Describe("List users")
	users.Action("create", ok[CreateUser]("created")).Describe("Invite a user")
	users.Mutation("ban", ok[UserRef]("banned")).Describe("Ban a user")
	billing := admin.Group("billing", "Invoices and refunds")
	billing.Query("invoices", ok[Invoices]("invoices")).Idempotent()
	billing.Mutation("refund", ok[Refund]("refunded")).Describe("Refund an invoice")
	billing.Query("balance", ok[UserRef]("0"))
	audit := admin.Group("audit", "Audit trail")
	audit.Query("events", ok[AuditQuery]("events")).Describe("List audit events")
	audit.Query("export", ok[AuditQuery]("export")).OpenWorld(true)
	audit.Mutation("purge", ok[struct{}]("purged"))
	return f
}

func TestMethodsMatchTheGoldenFiles(t *testing.T) {
	for _, tc := range []struct {
		name string
		exp  vurb.Exposition
	}{
		{"tools_flat.golden.json", vurb.Flat},
		{"tools_grouped.golden.json", vurb.Grouped},
	} {
		t.Run(tc.exp.String(), func(t *testing.T) {
			vurbtest.Golden(t, filepath.Join("testdata", tc.name), newFixtureMethods(vurb.WithExposition(tc.exp)))
		})
	}
}

func TestMethodsAndFunctionsCallAlike(t *testing.T) {
	is := is.New(t)
	calls := []struct{ name, args string }{
		{"projects_list", `{"workspace_id":"w1"}`},
		{"projects_create", `{"workspace_id":"w1","name":"Zeus"}`},
		{"projects_delete", `{"workspace_id":"w1","id":"missing"}`},
		{"projects_delete", `{"workspace_id":"w1"}`},
		{"admin_users_ban", `{"user_id":"u1"}`},
		{"admin_audit_purge", `{}`},
		{"admin_audit_events", `{"since":"yesterday"}`},
	}
	functions, methods := newFixture(), newFixtureMethods()
	for _, c := range calls {
		want, errWant := functions.Call(context.Background(), c.name, json.RawMessage(c.args))
		got, errGot := methods.Call(context.Background(), c.name, json.RawMessage(c.args))
		is.Equal(errGot, errWant)
		is.Equal(mustJSON(t, got), mustJSON(t, want)) // c.name
	}
}

func TestAppMethods(t *testing.T) {
	is := is.New(t)
	app := vurb.New()
	app.Query("weather.get", func(_ context.Context, in GetWeather) (string, error) { return "Sunny in " + in.City, nil })
	app.Action("weather.report", ok[GetWeather]("reported"))
	app.Mutation("weather.forget", ok[GetWeather]("forgotten"))
	app.Prompt("forecast", func(_ context.Context, a ReviewArgs) (string, error) { return "Forecast in " + a.Language, nil })
	app.Resource("config://app", "config", func(context.Context) (vurb.Contents, error) { return vurb.Contents{Text: "{}"}, nil })
	app.ResourceTemplate("city://{name}", "city", func(_ context.Context, v map[string]string) (vurb.Contents, error) {
		return vurb.Contents{Text: v["name"]}, nil
	})
	var names []string
	for _, tool := range app.Tools() {
		names = append(names, tool.Name+":"+mustJSON(t, tool.Annotations))
	}
	is.Equal(names, []string{
		`weather_get:{"destructiveHint":false,"idempotentHint":false,"readOnlyHint":true}`,
		`weather_report:{"destructiveHint":false,"idempotentHint":false,"readOnlyHint":false}`,
		`weather_forget:{"destructiveHint":true,"idempotentHint":false,"readOnlyHint":false}`,
	})
	is.Equal(text(call(t, app, "weather_get", `{"city":"Porto"}`)), "Sunny in Porto")
	cs := connect(t, app, nil)
	prompt, err := cs.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: "forecast", Arguments: map[string]string{"language": "Go"}})
	is.NoErr(err)
	is.Equal(prompt.Messages[0].Content.(*mcp.TextContent).Text, "Forecast in Go")
	read, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "city://Lisbon"})
	is.NoErr(err)
	is.Equal(read.Contents[0].Text, "Lisbon")
}
