package vurbtest_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
)

// The fixture: a small project tracker with a tool of each kind the
// harness drives.

type ListProjects struct {
	WorkspaceID string `json:"workspace_id" validate:"required" description:"Workspace the projects belong to"`
	Limit       *int   `json:"limit,omitempty" validate:"omitempty,min=1,max=100" description:"Page size"`
}

type DeleteProject struct {
	WorkspaceID string `json:"workspace_id" validate:"required" description:"Workspace the project belongs to"`
	ID          string `json:"id" validate:"required" description:"Project ID"`
}

type Project struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

type ProjectList struct {
	Projects []Project `json:"projects"`
}

type GreetArgs struct {
	Name string `json:"name" validate:"required" description:"Who to greet"`
}

type noInput = struct{}

func listProjects(_ context.Context, in ListProjects) (ProjectList, error) {
	return ProjectList{Projects: []Project{{ID: "p1", Name: "Apollo in " + in.WorkspaceID}}}, nil
}

func deleteProject(_ context.Context, in DeleteProject) (string, error) {
	if in.ID == "missing" {
		return "", fmt.Errorf("project %s not found", in.ID)
	}
	return "deleted " + in.ID, nil
}

// runJob reports three steps of progress and logs twice, once below the
// level tests ask for.
func runJob(ctx context.Context, _ noInput) (string, error) {
	for i := 1; i <= 3; i++ {
		if err := vurb.Progress(ctx, float64(i), 3, fmt.Sprintf("step %d", i)); err != nil {
			return "", err
		}
	}
	if err := vurb.Log(ctx, mcp.LoggingLevel("debug"), "too fine to see"); err != nil {
		return "", err
	}
	if err := vurb.Log(ctx, mcp.LoggingLevel("warning"), map[string]any{"disk": "low"}); err != nil {
		return "", err
	}
	return "done", nil
}

// confirm, summarize and listRoots ask the client for input with vurb.Ask*,
// which serve both protocol generations: a handshake-era session is asked
// directly, a 2026-07-28 client through input-required rounds.
func confirm(ctx context.Context, _ noInput) (string, error) {
	res, err := vurb.AskElicitation(ctx, "sure", &mcp.ElicitParams{Message: "Delete everything?", RequestedSchema: map[string]any{
		"type": "object", "properties": map[string]any{"sure": map[string]any{"type": "boolean"}},
	}})
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s %v", res.Action, res.Content["sure"]), nil
}

func summarize(ctx context.Context, _ noInput) (string, error) {
	res, err := vurb.AskSampling(ctx, "summary", &mcp.CreateMessageParams{
		MaxTokens: 50,
		Messages:  []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: "summarize"}}},
	})
	if err != nil {
		return "", err
	}
	return "model said: " + res.Content.(*mcp.TextContent).Text, nil
}

func listRoots(ctx context.Context, _ noInput) (string, error) {
	roots, err := vurb.AskRoots(ctx, "roots")
	if err != nil {
		return "", err
	}
	var uris []string
	for _, r := range roots {
		uris = append(uris, r.URI)
	}
	return strings.Join(uris, ","), nil
}

// newApp builds the fixture with opts.
func newApp(opts ...vurb.Option) *vurb.App {
	app := vurb.New(append([]vurb.Option{vurb.WithName("tracker"), vurb.WithVersion("1.0.0")}, opts...)...)
	projects := app.Tool("projects").Describe("Manage projects.")
	vurb.Query(projects, "list", listProjects).Describe("List projects in a workspace").Tags("read")
	vurb.Mutation(projects, "delete", deleteProject).Describe("Delete a project").Tags("write")
	vurb.Query(projects, "names", func(context.Context, noInput) ([]string, error) {
		return []string{"Apollo", "Gemini"}, nil
	}).Describe("List project names").Tags("read")
	vurb.Action(app, "jobs.run", runJob).Describe("Run a job")
	vurb.Action(app, "ai.confirm", confirm)
	vurb.Query(app, "ai.summarize", summarize)
	vurb.Query(app, "fs.roots", listRoots)

	vurb.Prompt(app, "greet", func(_ context.Context, a GreetArgs) (string, error) {
		return "Hello, " + a.Name + "!", nil
	}).Describe("Greet someone")
	vurb.Resource(app, "config://app", "config", func(context.Context) (vurb.Contents, error) {
		return vurb.Contents{Text: `{"debug":false}`}, nil
	}).MIMEType("application/json")
	vurb.ResourceTemplate(app, "users://{id}", "user", func(_ context.Context, v map[string]string) (vurb.Contents, error) {
		return vurb.Contents{Text: "user " + v["id"]}, nil
	})
	return app
}
