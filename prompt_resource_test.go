package vurb_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
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
	cs := connect(t, promptApp(), nil)
	ctx := context.Background()

	list, err := cs.ListPrompts(ctx, nil)
	is.NoErr(err)
	is.Equal(len(list.Prompts), 2)
	review := list.Prompts[0]
	is.Equal(review.Name, "code_review")
	is.Equal(review.Description, "Review code")
	is.Equal(len(review.Arguments), 2)
	is.Equal(*review.Arguments[0], mcp.PromptArgument{Name: "language", Description: "Programming language", Required: true})
	is.Equal(*review.Arguments[1], mcp.PromptArgument{Name: "focus", Description: "What to look at"})

	got, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "code_review", Arguments: map[string]string{"language": "Go", "focus": "security"}})
	is.NoErr(err)
	is.Equal(got.Description, "Review code")
	is.Equal(got.Messages[0].Content.(*mcp.TextContent).Text, "Review this Go code for security.")

	got, err = cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "greeting"})
	is.NoErr(err)
	is.Equal(got.Messages[0].Role, mcp.Role("assistant"))

	_, err = cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "code_review", Arguments: map[string]string{"focus": "speed", "lang": "go"}})
	is.True(err != nil)
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
	var mu sync.Mutex
	var updated []string
	cs := connect(t, app, &mcp.ClientOptions{ResourceUpdatedHandler: func(_ context.Context, r *mcp.ResourceUpdatedNotificationRequest) {
		mu.Lock()
		defer mu.Unlock()
		updated = append(updated, r.Params.URI)
	}})
	ctx := context.Background()

	list, err := cs.ListResources(ctx, nil)
	is.NoErr(err)
	is.Equal(len(list.Resources), 2)
	cfg := list.Resources[0]
	is.Equal(cfg.URI, "config://app")
	is.Equal(cfg.MIMEType, "application/json")
	is.Equal(cfg.Size, int64(15))
	is.Equal(cfg.Annotations.Priority, 0.5)

	templates, err := cs.ListResourceTemplates(ctx, nil)
	is.NoErr(err)
	is.Equal(templates.ResourceTemplates[0].URITemplate, "users://{id}/profile")

	read, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "config://app"})
	is.NoErr(err)
	is.Equal(*read.Contents[0], mcp.ResourceContents{URI: "config://app", MIMEType: "application/json", Text: `{"debug":false}`})
	read, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "logo://png"})
	is.NoErr(err)
	is.Equal(read.Contents[0].Blob, []byte{0x89, 'P', 'N', 'G'})
	is.Equal(read.Contents[0].MIMEType, "image/png")
	read, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "users://u42/profile"})
	is.NoErr(err)
	is.Equal(read.Contents[0].Text, "profile of u42")
	_, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "users://a/b/profile"})
	is.True(err != nil) // a variable never spans a '/'

	is.NoErr(cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "config://app"}))
	is.True(cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "nothing://here"}) != nil)
	is.NoErr(app.NotifyResourceUpdated(ctx, "config://app"))
	waitFor(t, func() bool { mu.Lock(); defer mu.Unlock(); return len(updated) == 1 })
	is.Equal(updated, []string{"config://app"})
	is.NoErr(cs.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: "config://app"}))
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
