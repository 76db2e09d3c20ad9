package vurb_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/observe"
)

// panickyApp declares one handler of each kind that panics with a secret,
// and one tool that works, to show the server serving on.
func panickyApp(logger *slog.Logger) *vurb.App {
	type noArgs struct{}
	type topicArgs struct {
		Topic string `json:"topic" description:"The topic"`
	}
	app := vurb.New(vurb.WithLogger(logger),
		vurb.WithObserver(func(_ context.Context, e observe.Event) {
			if e.Kind == observe.CallStarted && e.Action == "observed" {
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
	case "checkout":
		if err := newCheckoutApp().app.Serve(context.Background(), vurb.Stdio()); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	case "wizard":
		if err := wizardApp().Serve(context.Background(), vurb.Stdio()); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
}

// panicky panics where it is put: before or after calling next.
func panicky(before bool, value any) vurb.Middleware {
	return func(next vurb.Handler) vurb.Handler {
		return func(ctx context.Context, c *vurb.Call) (*mcp.CallToolResult, error) {
			if before {
				panic(value)
			}
			res, err := next(ctx, c)
			if res != nil || err != nil { // always: the handler has answered
				panic(value)
			}
			return res, err
		}
	}
}

// panicApp panics in every place a call can: the handler (with a runtime
// error, an error value, a string and nil) and middleware at each level,
// before and after next.
func panicApp(exp vurb.Exposition, logs *syncBuffer) *vurb.App {
	f := vurb.New(vurb.WithExposition(exp), vurb.WithLogger(slog.New(slog.NewTextHandler(logs, nil))))
	jobs := f.Tool("jobs")
	vurb.Mutation(jobs, "index", func(context.Context, noInput) (string, error) {
		var s []int
		return strconv.Itoa(s[3]), nil // index out of range: a runtime.Error
	})
	vurb.Mutation(jobs, "error", func(context.Context, noInput) (string, error) { panic(boomMessage) })
	vurb.Mutation(jobs, "string", func(context.Context, noInput) (string, error) {
		panic("secret at /srv/app/main.go:12 in main.(*Server).handle")
	})
	vurb.Mutation(jobs, "nil", func(context.Context, noInput) (string, error) { panic(nil) })
	vurb.Query(jobs, "mwbefore", ok[noInput]("unreachable")).Use(panicky(true, "middleware before next: /srv/app/mw.go:9"))
	vurb.Query(jobs, "mwafter", ok[noInput]("unreachable")).Use(panicky(false, boomMessage))
	panicking := f.Tool("guarded").Use(panicky(true, fmt.Errorf("tool middleware: %w", boomMessage)))
	vurb.Query(panicking, "list", ok[noInput]("unreachable"))
	return f
}

func TestPanicsYieldAGenericErrorWithAReference(t *testing.T) {
	for _, exp := range []vurb.Exposition{vurb.Flat, vurb.Grouped} {
		t.Run(exp.String(), func(t *testing.T) {
			var logs syncBuffer
			app := panicApp(exp, &logs)
			cs := connect(t, app, nil)
			refs := map[string]bool{}
			for _, tc := range []struct{ tool, action, logged string }{
				{"jobs", "index", "index out of range [3] with length 0"},
				{"jobs", "error", "conn.go:42"},
				{"jobs", "string", "secret at /srv/app/main.go:12"},
				{"jobs", "nil", "panic called with nil argument"},
				{"jobs", "mwbefore", "middleware before next"},
				{"jobs", "mwafter", "conn.go:42"},
				{"guarded", "list", "tool middleware"},
			} {
				for _, served := range []bool{true, false} {
					is := is.New(t)
					name, args := tc.tool+"_"+tc.action, `{}`
					if exp == vurb.Grouped {
						name, args = tc.tool, `{"action":"`+tc.action+`"}`
					}
					var res *mcp.CallToolResult
					var err error
					if served {
						res, err = callRaw(t, cs, name, args)
					} else {
						res, err = app.Call(context.Background(), name, json.RawMessage(args))
					}
					is.NoErr(err)
					is.True(res.IsError)
					got := text(res)
					m := regexp.MustCompile(`^` + regexp.QuoteMeta(errPrefix(exp, tc.tool, tc.action)) + `internal error \(ref (\w+)\); the server has logged the details$`).FindStringSubmatch(got)
					if m == nil {
						t.Fatalf("%s: got %q", name, got)
					}
					is.Equal(leaks(got), "") // no path, type or stack
					is.True(!refs[m[1]])     // every panic has its own reference
					refs[m[1]] = true
					log := logs.String()
					is.True(strings.Contains(log, "ref="+m[1])) // the reference joins the reply to the log,
					is.True(strings.Contains(log, tc.logged))   // which has the panic value
					is.True(strings.Contains(log, "goroutine")) // and the stack
				}
			}
			name, args := "guarded_list", `{}`
			if exp == vurb.Grouped {
				name, args = "guarded", `{"action":"list"}`
			}
			res, err := callRaw(t, cs, name, args)
			is.New(t).NoErr(err) // the session still serves after all of them
			is.New(t).True(res.IsError)
		})
	}
}

// unencodable cannot be written as JSON; its error names a Go type.
type unencodable struct{}

func (unencodable) MarshalJSON() ([]byte, error) { return nil, errors.New("token expired") }

func TestInternalErrorsDoNotLeakGoTypes(t *testing.T) {
	var logs syncBuffer
	f := vurb.New(vurb.WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	vurb.Query(f, "leak.chan", func(context.Context, noInput) (any, error) { return map[string]any{"c": make(chan int)}, nil })
	vurb.Query(f, "leak.marshaler", func(context.Context, noInput) (unencodable, error) { return unencodable{}, nil })
	vurb.Query(f, "leak.func", func(context.Context, noInput) (any, error) { return func() {}, nil })
	cs := connect(t, f, nil)
	for _, name := range []string{"leak_chan", "leak_marshaler", "leak_func"} {
		is := is.New(t)
		res, err := callRaw(t, cs, name, `{}`)
		is.NoErr(err)
		is.True(res.IsError)
		got := text(res)
		is.Equal(leaks(got), "")
		m := regexp.MustCompile(`^\[leak_\w+\] internal error \(ref (\w+)\)`).FindStringSubmatch(got)
		if m == nil {
			t.Fatalf("%s: got %q, want a generic internal error with a reference", name, got)
		}
		is.True(strings.Contains(logs.String(), "ref="+m[1])) // the details are in the log
	}
}

func TestGoexitInAHandlerIsAnInternalError(t *testing.T) {
	is := is.New(t)
	var logs syncBuffer
	f := vurb.New(vurb.WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	vurb.Query(f, "jobs.exit", func(context.Context, noInput) (string, error) {
		runtime.Goexit()
		return "unreachable", nil
	}).Timeout(5 * time.Second) // the call must not wait for this
	res := call(t, f, "jobs_exit", `{}`)
	is.True(res.IsError)
	is.True(regexp.MustCompile(`^\[jobs_exit\] internal error \(ref \w+\); the server has logged the details$`).MatchString(text(res)))
}

// TestFastLaneContainsMiddlewarePanics: a request middleware that panics on
// a sessionless call answers an internal error with a reference, as on the
// go-sdk's path, and the server goes on serving.
func TestFastLaneContainsMiddlewarePanics(t *testing.T) {
	is := is.New(t)
	boom := func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "tools/call" {
				panic("boom")
			}
			return next(ctx, method, req)
		}
	}
	app := vurb.New(vurb.WithRequestMiddleware(boom), vurb.WithLogger(slog.New(slog.DiscardHandler)))
	vurb.Query(app, "docs.search", func(_ context.Context, in laneInput) (string, error) { return in.Query, nil })
	handler := app.HTTPHandler()
	for range 2 {
		got := serveOnce(handler, newCall(`1`, "docs_search", `{"query":"x"}`))
		is.Equal(got.status, http.StatusOK)
		is.True(strings.Contains(got.body, `"code":-32603`))
		is.True(strings.Contains(got.body, "ref X"))
	}
}
