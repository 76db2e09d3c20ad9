package vurb_test

import (
	"context"
	"strings"
	"testing"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/vurbtest"
)

type ReviewArgs struct {
	Language string  `json:"language" validate:"required" description:"Programming language"`
	Focus    *string `json:"focus,omitempty" validate:"omitempty,oneof=security style" description:"What to look at"`
}

func promptApp() *vurb.App {
	app := vurb.New()
	vurb.Query(app, "misc.ping", ok[noInput]("pong"))
	vurb.Prompt(app, "code_review", func(ctx context.Context, a ReviewArgs) (string, error) {
		focus := "everything"
		if a.Focus != nil {
			focus = *a.Focus
		}
		return "Review this " + a.Language + " code for " + focus + ".", nil
	}).Describe("Review code").Complete("language", func(_ context.Context, typed string, _ map[string]string) ([]string, error) {
		var out []string
		for _, l := range []string{"go", "rust", "python", "golang"} {
			if strings.HasPrefix(l, typed) {
				out = append(out, l)
			}
		}
		return out, nil
	})
	vurb.Prompt(app, "greeting", func(ctx context.Context, _ struct{}) ([]*mcp.PromptMessage, error) {
		return []*mcp.PromptMessage{{Role: "assistant", Content: &mcp.TextContent{Text: "Hello!"}}}, nil
	}).Describe("Say hello")

	vurb.Resource(app, "config://app", "app-config", func(context.Context) (vurb.Contents, error) {
		return vurb.Contents{Text: `{"debug":false}`}, nil
	}).MIMEType("application/json").Describe("Configuration").Size(15).
		Annotations(&mcp.Annotations{Audience: []mcp.Role{"assistant"}, Priority: 0.5})
	vurb.Resource(app, "logo://png", "logo", func(context.Context) (vurb.Contents, error) {
		return vurb.Contents{Blob: []byte{0x89, 'P', 'N', 'G'}, MIMEType: "image/png"}, nil
	})
	vurb.ResourceTemplate(app, "users://{id}/profile", "user-profile", func(_ context.Context, vars map[string]string) (vurb.Contents, error) {
		return vurb.Contents{Text: "profile of " + vars["id"]}, nil
	}).MIMEType("text/plain").Complete("id", func(context.Context, string, map[string]string) ([]string, error) {
		return []string{"u1", "u2"}, nil
	})
	return app
}

func TestPrompts(t *testing.T) {
	is := is.New(t)
	c := vurbtest.New(t, promptApp())

	prompts := c.Prompts()
	is.Equal(len(prompts), 2)
	review := prompts[0]
	is.Equal(review.Name, "code_review")
	is.Equal(review.Description, "Review code")
	is.Equal(len(review.Arguments), 2)
	is.Equal(*review.Arguments[0], mcp.PromptArgument{Name: "language", Description: "Programming language", Required: true})
	is.Equal(*review.Arguments[1], mcp.PromptArgument{Name: "focus", Description: "What to look at"})

	got := c.GetPrompt("code_review", map[string]string{"language": "Go", "focus": "security"})
	is.Equal(got.Description, "Review code")
	is.Equal(got.Messages[0].Content.(*mcp.TextContent).Text, "Review this Go code for security.")

	got = c.GetPrompt("greeting", nil)
	is.Equal(got.Messages[0].Role, mcp.Role("assistant"))

	err := c.GetPromptError("code_review", map[string]string{"focus": "speed", "lang": "go"})
	for _, want := range []string{`prompt "code_review": invalid arguments`, `unknown field "lang"`, "language"} {
		is.True(strings.Contains(err.Error(), want)) // the fields are named
	}
}

func TestCompletions(t *testing.T) {
	is := is.New(t)
	cs := connect(t, promptApp(), nil)
	res, err := cs.Complete(context.Background(), &mcp.CompleteParams{
		Ref:      &mcp.CompleteReference{Type: "ref/prompt", Name: "code_review"},
		Argument: mcp.CompleteParamsArgument{Name: "language", Value: "go"},
	})
	is.NoErr(err)
	is.Equal(res.Completion.Values, []string{"go", "golang"})
	res, err = cs.Complete(context.Background(), &mcp.CompleteParams{
		Ref:      &mcp.CompleteReference{Type: "ref/resource", URI: "users://{id}/profile"},
		Argument: mcp.CompleteParamsArgument{Name: "id", Value: ""},
	})
	is.NoErr(err)
	is.Equal(res.Completion.Values, []string{"u1", "u2"})
}

func TestResources(t *testing.T) {
	is := is.New(t)
	app := promptApp()
	c := vurbtest.New(t, app)
	ctx := context.Background()

	resources := c.Resources()
	is.Equal(len(resources), 2)
	cfg := resources[0]
	is.Equal(cfg.URI, "config://app")
	is.Equal(cfg.MIMEType, "application/json")
	is.Equal(cfg.Size, int64(15))
	is.Equal(cfg.Annotations.Priority, 0.5)

	is.Equal(c.ResourceTemplates()[0].URITemplate, "users://{id}/profile")

	read := c.ReadResource("config://app")
	is.Equal(*read.Contents[0], mcp.ResourceContents{URI: "config://app", MIMEType: "application/json", Text: `{"debug":false}`})
	read = c.ReadResource("logo://png")
	is.Equal(read.Contents[0].Blob, []byte{0x89, 'P', 'N', 'G'})
	is.Equal(read.Contents[0].MIMEType, "image/png")
	is.Equal(c.ReadResource("users://u42/profile").Contents[0].Text, "profile of u42")
	is.True(c.ReadResourceError("users://a/b/profile") != nil) // a variable never spans a '/'

	is.NoErr(c.Session().Subscribe(ctx, &mcp.SubscribeParams{URI: "config://app"}))
	is.True(c.Session().Subscribe(ctx, &mcp.SubscribeParams{URI: "nothing://here"}) != nil)
	is.NoErr(app.NotifyResourceUpdated(ctx, "config://app"))
	is.Equal(c.ResourceUpdates(1), []string{"config://app"})
	is.NoErr(c.Session().Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: "config://app"}))
}

func TestPromptAndResourceDefinitionRules(t *testing.T) {
	for _, tc := range []struct {
		name   string
		define func()
		want   string
	}{
		{"non-string prompt argument", func() {
			vurb.Prompt(vurb.New(), "p", func(context.Context, struct {
				N int `json:"n"`
			}) (string, error) {
				return "", nil
			})
		}, `vurb: prompt "p": argument "n" is a integer; prompt arguments are strings`},
		{"bad prompt result", func() {
			vurb.Prompt(vurb.New(), "p", func(context.Context, struct{}) (int, error) { return 0, nil })
		}, `vurb: prompt "p": the handler must return *mcp.GetPromptResult, []*mcp.PromptMessage or string (got int)`},
		{"duplicate resource", func() {
			app := vurb.New()
			read := func(context.Context) (vurb.Contents, error) { return vurb.Contents{}, nil }
			vurb.Resource(app, "a://b", "b", read)
			vurb.Resource(app, "a://b", "b", read)
		}, `vurb: resource "a://b" is already declared`},
		{"complex template", func() {
			vurb.ResourceTemplate(vurb.New(), "files://{+path}", "f", func(context.Context, map[string]string) (vurb.Contents, error) {
				return vurb.Contents{}, nil
			})
		}, `vurb: resource template "files://{+path}": variable {+path}: only simple {name} variables are supported`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msg := mustPanic(t, tc.define)
			if !strings.Contains(msg, tc.want) {
				t.Fatalf("panic message\n got: %s\nwant: …%s…", msg, tc.want)
			}
		})
	}
}
