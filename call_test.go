package vurb_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
)

// text returns the concatenated text blocks of res.
func text(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func call(t *testing.T, f *vurb.App, name, args string) *mcp.CallToolResult {
	t.Helper()
	res, err := f.Call(context.Background(), name, json.RawMessage(args))
	if err != nil {
		t.Fatalf("Call(%s, %s): %v", name, args, err)
	}
	return res
}

const allAdminActions = "users.list, users.create, users.ban, billing.invoices, billing.refund, billing.balance, audit.events, audit.export, audit.purge"

func TestCallResults(t *testing.T) {
	flat, grouped := newFixture(), newFixture(vurb.WithExposition(vurb.Grouped))
	for _, tc := range []struct {
		name    string
		app     *vurb.App
		tool    string
		args    string
		want    string
		isError bool
	}{
		{"flat struct result", flat, "projects_list", `{"workspace_id":"w1"}`, `{"projects":[{"id":"p1","name":"Apollo"}]}`, false},
		{"flat string result", flat, "projects_delete", `{"workspace_id":"w1","id":"p9"}`, "deleted p9", false},
		{"grouped dispatch", grouped, "projects", `{"action":"create","workspace_id":"w1","name":"Gemini"}`, `{"id":"p2","name":"Gemini"}`, false},
		{"grouped hierarchical", grouped, "admin", `{"action":"billing.refund","invoice_id":"i1"}`, "refunded", false},
		{"grouped no input", grouped, "admin", `{"action":"audit.purge"}`, "purged", false},
		{"absent arguments", flat, "admin_audit_purge", ``, "purged", false},
		{"handler error", flat, "projects_delete", `{"workspace_id":"w1","id":"missing"}`, "[projects_delete] project missing not found", true},
		{"grouped handler error", grouped, "projects", `{"action":"delete","workspace_id":"w1","id":"missing"}`, "[projects action=delete] project missing not found", true},
		{"missing discriminator", grouped, "admin", `{"user_id":"u1"}`, "action is required. Available: " + allAdminActions, true},
		{"missing discriminator, no arguments", grouped, "projects", ``, "action is required. Available: list, create, delete", true},
		{"unknown action", grouped, "projects", `{"action":"lst","workspace_id":"w1"}`, `Unknown action "lst". Available: list, create, delete (did you mean "list"?)`, true},
		{"discriminator not a string", grouped, "projects", `{"action":7}`, "action must be a string, got number. Available: list, create, delete", true},
		{"discriminator injected into a flat tool", flat, "projects_list", `{"action":"list","workspace_id":"w1"}`, `[projects_list] invalid arguments: unknown field "action"; accepted: workspace_id, limit`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			res := call(t, tc.app, tc.tool, tc.args)
			is.Equal(text(res), tc.want)
			is.Equal(res.IsError, tc.isError)
		})
	}
}

func TestCallStructuredContent(t *testing.T) {
	is := is.New(t)
	res := call(t, newFixture(), "projects_create", `{"workspace_id":"w1","name":"Gemini"}`)
	data, err := json.Marshal(res.StructuredContent)
	is.NoErr(err)
	is.Equal(string(data), `{"id":"p2","name":"Gemini"}`)
}

func TestUnknownToolIsAProtocolError(t *testing.T) {
	for _, name := range []string{"nope", "", "projects", strings.Repeat("x", 100_000)} {
		is := is.New(t)
		_, err := newFixture().Call(context.Background(), name, nil)
		var rpcErr *jsonrpc.Error
		is.True(errors.As(err, &rpcErr))
		is.Equal(rpcErr.Code, int64(jsonrpc.CodeInvalidParams))
		is.True(strings.HasPrefix(rpcErr.Message, "unknown tool "))
		is.True(len(rpcErr.Message) < 200) // a huge name is not echoed back whole
	}
}

func TestResultShapes(t *testing.T) {
	f := vurb.New()
	vurb.Query(f, "r.text", func(context.Context, noInput) (*mcp.CallToolResult, error) { return vurb.Text("hi"), nil })
	vurb.Query(f, "r.json", func(context.Context, noInput) (*mcp.CallToolResult, error) {
		return vurb.JSON(map[string]int{"n": 1}), nil
	})
	vurb.Query(f, "r.error", func(context.Context, noInput) (*mcp.CallToolResult, error) { return vurb.Error("no such thing"), nil })
	vurb.Query(f, "r.nil", func(context.Context, noInput) (*mcp.CallToolResult, error) { return nil, nil })
	vurb.Query(f, "r.map", func(context.Context, noInput) (map[string]string, error) { return map[string]string{"a": "b"}, nil })
	vurb.Query(f, "r.slice", func(context.Context, noInput) ([]int, error) { return []int{1, 2}, nil })
	vurb.Query(f, "r.number", func(context.Context, noInput) (float64, error) { return 2.5, nil })
	vurb.Query(f, "r.any", func(context.Context, noInput) (any, error) { return "dynamic", nil })
	vurb.Query(f, "r.nilptr", func(context.Context, noInput) (*Project, error) { return nil, nil })
	vurb.Query(f, "r.ptr", func(_ context.Context, in *CreateProject) (*Project, error) { return &Project{Name: in.Name}, nil })
	vurb.Query(f, "r.badjson", func(context.Context, noInput) (any, error) { return func() {}, nil })

	for _, tc := range []struct {
		tool, args, text string
		structured       string // "" for none
		isError          bool
	}{
		{"r_text", "", "hi", "", false},
		{"r_json", "", `{"n":1}`, `{"n":1}`, false},
		{"r_error", "", "no such thing", "", true},
		{"r_nil", "", "", "", false},
		{"r_map", "", `{"a":"b"}`, `{"a":"b"}`, false},
		{"r_slice", "", `[1,2]`, "", false},
		{"r_number", "", `2.5`, "", false},
		{"r_any", "", "dynamic", "", false},
		{"r_nilptr", "", "null", "", false},
		{"r_ptr", `{"workspace_id":"w","name":"Pointer"}`, `{"id":"","name":"Pointer"}`, `{"id":"","name":"Pointer"}`, false},
		{"r_badjson", "", "", "", true}, // a generic internal error: see TestInternalErrorsDoNotLeakGoTypes
	} {
		t.Run(tc.tool, func(t *testing.T) {
			is := is.New(t)
			res := call(t, f, tc.tool, tc.args)
			if tc.tool != "r_badjson" {
				is.Equal(text(res), tc.text)
			} else {
				is.True(strings.HasPrefix(text(res), "[r_badjson] internal error (ref "))
			}
			is.Equal(res.IsError, tc.isError)
			is.True(res.Content != nil) // never "content": null on the wire
			if tc.structured == "" {
				is.Equal(res.StructuredContent, nil)
				return
			}
			data, err := json.Marshal(res.StructuredContent)
			is.NoErr(err)
			is.Equal(string(data), tc.structured)
		})
	}
}

func TestPanicIsRecoveredAndLogged(t *testing.T) {
	is := is.New(t)
	var logs bytes.Buffer
	f := vurb.New(vurb.WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	vurb.Mutation(f, "jobs.explode", func(context.Context, noInput) (string, error) {
		var m map[string]int
		//lint:ignore SA5000 the nil-map write is the point: a real runtime panic
		m["boom"]++
		return "unreachable", nil
	})
	res := call(t, f, "jobs_explode", `{}`)
	is.True(res.IsError)
	m := regexp.MustCompile(`^\[jobs_explode\] internal error \(ref (\w+)\); the server has logged the details$`).FindStringSubmatch(text(res))
	is.True(m != nil)
	is.True(!strings.Contains(text(res), ".go"))     // no file paths
	is.True(!strings.Contains(text(res), "runtime")) // no Go internals
	is.True(strings.Contains(logs.String(), "ref="+m[1]))
	is.True(strings.Contains(logs.String(), "assignment to entry in nil map"))
	is.True(strings.Contains(logs.String(), "goroutine"))                           // the stack went to the log
	is.Equal(text(call(t, f, "jobs_explode", `{}`))[:22], "[jobs_explode] interna") // and the app keeps serving
}

func TestTimeouts(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	f := vurb.New(vurb.WithTimeout(time.Hour))
	slow := f.Tool("slow").Timeout(time.Minute)
	vurb.Query(slow, "ignores", func(ctx context.Context, _ noInput) (string, error) {
		<-release // ignores ctx entirely
		return "late", nil
	}).Timeout(20 * time.Millisecond)
	vurb.Query(slow, "honours", func(ctx context.Context, _ noInput) (string, error) {
		<-ctx.Done()
		return "", ctx.Err()
	}).Timeout(10 * time.Millisecond)

	for _, tc := range []struct{ tool, want string }{
		{"slow_ignores", "[slow_ignores] timed out after 20ms; the operation may still complete on the server, so check its effect before retrying"},
		{"slow_honours", "[slow_honours] timed out after 10ms; the operation may still complete on the server, so check its effect before retrying"},
	} {
		is := is.New(t)
		res := call(t, f, tc.tool, `{}`)
		is.True(res.IsError)
		is.Equal(text(res), tc.want)
	}
}

func TestCallerCancellation(t *testing.T) {
	is := is.New(t)
	f := vurb.New()
	started := make(chan struct{})
	sawDone := make(chan struct{})
	vurb.Query(f, "jobs.wait", func(ctx context.Context, _ noInput) (string, error) {
		close(started)
		<-ctx.Done()
		close(sawDone)
		return "", ctx.Err()
	})
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-started; cancel() }()
	_, err := f.Call(ctx, "jobs_wait", nil)
	is.True(errors.Is(err, context.Canceled))
	<-sawDone // the handler saw the cancellation
}

// TestErrorsNameWhatTheModelCalled: an error begins with what the model
// called under the app's exposition, a grouped tool's unknown action gets
// a did-you-mean (a group's action named without its group included), and
// a handler names another action as the model must call it (Call.Refer).
func TestErrorsNameWhatTheModelCalled(t *testing.T) {
	for _, exp := range []vurb.Exposition{vurb.Flat, vurb.Grouped} {
		t.Run(exp.String(), func(t *testing.T) {
			is := is.New(t)
			app := vurb.New(vurb.WithExposition(exp))
			dir := app.Tool("directory")
			users := dir.Group("users", "People")
			vurb.Query(users, "get", func(ctx context.Context, in struct {
				ID string `json:"id" validate:"required"`
			}) (string, error) {
				list, _ := vurb.CallFrom(ctx).Refer("directory.users.list")
				return "", fmt.Errorf("no user %s; call %s to see who exists", in.ID, list)
			})
			vurb.Query(users, "list", func(context.Context, struct{}) (string, error) { return "ann", nil })
			name, args := wireCall(exp, "directory", "users.get", `{"id":"u9"}`)
			res, err := app.Call(context.Background(), name, json.RawMessage(args))
			is.NoErr(err)
			want := map[vurb.Exposition]string{
				vurb.Flat:    "[directory_users_get] no user u9; call directory_users_list to see who exists",
				vurb.Grouped: `[directory action=users.get] no user u9; call directory with {"action":"users.list"} to see who exists`,
			}[exp]
			is.Equal(text(res), want)
			if exp == vurb.Grouped {
				res, err := app.Call(context.Background(), "directory", json.RawMessage(`{"action":"get","id":"u9"}`))
				is.NoErr(err)
				is.True(strings.HasSuffix(text(res), `(did you mean "users.get"?)`))
			}
		})
	}
}
