package vurb_test

import (
	"context"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
)

// panickyApp declares one handler of each kind that panics with a secret,
// and one tool that works, to show the server serving on.
func panickyApp(logger *slog.Logger) *vurb.App {
	type noArgs struct{}
	type topicArgs struct {
		Topic string `json:"topic" description:"The topic"`
	}
	app := vurb.New(vurb.WithLogger(logger),
		vurb.WithObserver(func(_ context.Context, e vurb.Event) {
			if e.Kind == vurb.CallStarted && e.Action == "observed" {
				panic("observer secret")
			}
		}))
	vurb.Query(app.Tool("ops"), "ok", func(context.Context, noArgs) (string, error) { return "fine", nil })
	vurb.Query(app.Tool("ops"), "observed", func(context.Context, noArgs) (string, error) { return "observed fine", nil })
	vurb.Prompt(app, "boom", func(context.Context, topicArgs) (string, error) { panic("prompt secret") }).
		Complete("topic", func(context.Context, string, map[string]string) ([]string, error) { panic("completer secret") })
	vurb.Resource(app, "res://boom", "boom", func(context.Context) (vurb.Contents, error) { panic("resource secret") })
	vurb.ResourceTemplate(app, "res://t/{id}", "t", func(context.Context, map[string]string) (vurb.Contents, error) {
		panic("template secret")
	})
	return app
}

// exercisePanics sends a request to each panicking handler and checks
// that each is answered with an internal error that leaks nothing, and
// that the server still serves after.
func exercisePanics(t *testing.T, cs *mcp.ClientSession) {
	t.Helper()
	is := is.New(t)
	ctx := context.Background()
	internal := func(what string, err error) {
		t.Helper()
		if err == nil {
			t.Fatalf("%s: no error", what)
		}
		is.True(strings.Contains(err.Error(), "internal error (ref "))
		is.True(!strings.Contains(err.Error(), "secret"))
	}
	_, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "boom", Arguments: map[string]string{"topic": "x"}})
	internal("prompt", err)
	_, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "res://boom"})
	internal("resource", err)
	_, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "res://t/1"})
	internal("resource template", err)
	_, err = cs.Complete(ctx, &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/prompt", Name: "boom"},
		Argument: mcp.CompleteParamsArgument{Name: "topic", Value: "a"}})
	internal("completion", err)

	// An observer's panic does not fail the call it watches.
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "ops_observed", Arguments: map[string]any{}})
	is.NoErr(err)
	is.Equal(res.Content[0].(*mcp.TextContent).Text, "observed fine")
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "ops_ok", Arguments: map[string]any{}})
	is.NoErr(err)
	is.Equal(res.Content[0].(*mcp.TextContent).Text, "fine")
}

func TestPanicsOfEveryHandlerKindAreContained(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	var log syncBuffer
	app := panickyApp(slog.New(slog.NewJSONHandler(&log, nil)))
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := app.NewServer().Connect(ctx, st, nil)
	is.NoErr(err)
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(ctx, ct, nil)
	is.NoErr(err)
	defer cs.Close()

	exercisePanics(t, cs)
	got := log.String()
	for _, secret := range []string{"prompt secret", "resource secret", "template secret", "completer secret", "observer secret"} {
		if !strings.Contains(got, secret) {
			t.Errorf("the log lacks %q", secret)
		}
	}
	is.True(strings.Contains(got, `"stack":`))               // the stack is logged
	is.True(strings.Contains(got, `"target":"prompt boom"`)) // and what the request was about
}

// TestPanicsOverStdio runs the server as a child process, as a desktop
// client does: a panic once ended the process, and every client with it.
func TestPanicsOverStdio(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestStdioChild$")
	cmd.Env = append(os.Environ(), "VURB_STDIO_CHILD=panics")
	var stderr syncBuffer
	cmd.Stderr = &stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).
		Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	is.NoErr(err)
	exercisePanics(t, cs)
	is.NoErr(cs.Close())
	is.True(strings.Contains(stderr.String(), "prompt secret")) // logged by the child, to stderr
}

// TestStdioChild is the child process of the stdio tests; it runs only
// when they start it.
func TestStdioChild(t *testing.T) {
	switch os.Getenv("VURB_STDIO_CHILD") {
	case "":
		t.Skip("the child process of the stdio tests")
	case "panics":
		app := panickyApp(slog.New(slog.NewTextHandler(os.Stderr, nil)))
		if err := app.Serve(context.Background(), vurb.Stdio()); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
}
