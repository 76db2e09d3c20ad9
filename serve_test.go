package vurb_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/vurbtest"
)

func TestServedToolsListMatchesCompiled(t *testing.T) {
	for _, exp := range []vurb.Exposition{vurb.Flat, vurb.Grouped} {
		t.Run(exp.String(), func(t *testing.T) {
			is := is.New(t)
			app := newFixture(vurb.WithExposition(exp))
			compiled := map[string]any{}
			for _, tool := range app.Tools() {
				compiled[tool.Name] = roundTrip(t, tool)
			}
			served := map[string]any{}
			for _, tool := range vurbtest.New(t, app).Tools() {
				served[tool.Name] = roundTrip(t, tool)
			}
			is.Equal(served, compiled) // the client sees exactly the compiled tools
		})
	}
}

// roundTrip is v as generic JSON, for comparing what went over the wire.
func roundTrip(t *testing.T, v any) any {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestServedCalls(t *testing.T) {
	flat := connect(t, newFixture(), nil)
	grouped := connect(t, newFixture(vurb.WithExposition(vurb.Grouped)), nil)
	for _, tc := range []struct {
		name     string
		cs       *mcp.ClientSession
		tool     string
		args     string
		want     string
		isError  bool
		protocol bool
	}{
		{"flat ok", flat, "projects_list", `{"workspace_id":"w"}`, `{"projects":[{"id":"p1","name":"Apollo"}]}`, false, false},
		{"grouped ok", grouped, "admin", `{"action":"users.create","email":"a@b.co"}`, "created", false, false},
		{"no arguments", flat, "admin_audit_purge", ``, "purged", false, false},
		{"handler error", flat, "projects_delete", `{"workspace_id":"w","id":"missing"}`, "[projects_delete] project missing not found", true, false},
		{"unknown action", grouped, "admin", `{"action":"users.lst"}`, `Unknown action "users.lst". Available: ` + allAdminActions + ` (did you mean "users.list"?)`, true, false},
		{"missing action", grouped, "projects", `{}`, "action is required. Available: list, create, delete", true, false},
		{"unknown tool", flat, "nope", `{}`, `unknown tool "nope"`, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			res, err := callRaw(t, tc.cs, tc.tool, tc.args)
			if tc.protocol {
				is.True(err != nil)
				is.True(strings.Contains(err.Error(), tc.want))
				return
			}
			is.NoErr(err)
			is.Equal(text(res), tc.want)
			is.Equal(res.IsError, tc.isError)
		})
	}
}

// filterApp has a read and a destructive write in one tool, tagged apart.
func filterApp(exp vurb.Exposition) *vurb.App {
	f := vurb.New(vurb.WithExposition(exp))
	tasks := f.Tool("tasks").Tags("tasks")
	vurb.Query(tasks, "list", ok[noInput]("listed")).Tags("read")
	vurb.Mutation(tasks, "purge", ok[noInput]("purged")).Tags("write", "dangerous")
	vurb.Query(f, "admin.stats", ok[noInput]("stats"))
	return f
}

func TestTagFilters(t *testing.T) {
	for _, tc := range []struct {
		name    string
		exp     vurb.Exposition
		opts    []vurb.ServeOption
		listed  []string
		callOK  [][2]string // tool, args
		refused [][2]string
	}{
		{"flat include", vurb.Flat, []vurb.ServeOption{vurb.WithIncludeTags("read")},
			[]string{"tasks_list"}, [][2]string{{"tasks_list", ""}}, [][2]string{{"tasks_purge", ""}, {"admin_stats", ""}}},
		{"flat exclude per action", vurb.Flat, []vurb.ServeOption{vurb.WithExcludeTags("dangerous")},
			[]string{"admin_stats", "tasks_list"}, [][2]string{{"tasks_list", ""}, {"admin_stats", ""}}, [][2]string{{"tasks_purge", ""}}},
		{"flat include tool tag, exclude action tag", vurb.Flat, []vurb.ServeOption{vurb.WithIncludeTags("tasks"), vurb.WithExcludeTags("write")},
			[]string{"tasks_list"}, nil, [][2]string{{"tasks_purge", ""}, {"admin_stats", ""}}},
		{"grouped exclude whole tool", vurb.Grouped, []vurb.ServeOption{vurb.WithExcludeTags("tasks")},
			[]string{"admin"}, [][2]string{{"admin", `{"action":"stats"}`}}, [][2]string{{"tasks", `{"action":"list"}`}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			cs := connect(t, filterApp(tc.exp), nil, tc.opts...)
			is.Equal(listNames(t, cs), tc.listed)
			for _, c := range tc.callOK {
				res, err := callRaw(t, cs, c[0], c[1])
				is.NoErr(err)
				is.True(!res.IsError)
			}
			for _, c := range tc.refused {
				_, err := callRaw(t, cs, c[0], c[1])
				_, never := callRaw(t, cs, "never_existed", "")
				is.True(err != nil)
				// The same error as a name that never existed, name aside.
				is.Equal(strings.Replace(err.Error(), c[0], "X", 1), strings.Replace(never.Error(), "never_existed", "X", 1))
			}
		})
	}
}

func TestGroupedFilterPerAction(t *testing.T) {
	is := is.New(t)
	c := vurbtest.New(t, filterApp(vurb.Grouped), vurbtest.Serve(vurb.WithExcludeTags("dangerous")))
	tools := c.Tools()
	is.Equal(len(tools), 2)
	tasks := tools[1] // listed by name: admin, tasks
	is.Equal(tasks.Name, "tasks")
	schema, err := json.Marshal(tasks.InputSchema)
	is.NoErr(err)
	is.True(strings.Contains(string(schema), `"enum":["list"]`)) // purge is not offered
	is.True(!strings.Contains(tasks.Description, "purge"))
	is.Equal(c.CallError("tasks", map[string]any{"action": "purge"}), `Unknown action "purge". Available: list`)
}

func TestAttachAndDetach(t *testing.T) {
	is := is.New(t)
	server := mcp.NewServer(&mcp.Implementation{Name: "host", Version: "1"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "own_tool", Description: "the host's own"},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return vurb.Text("own"), nil, nil
		})
	detach := newFixture(vurb.WithExposition(vurb.Grouped)).Attach(server)

	serverT, clientT := mcp.NewInMemoryTransports()
	ss, err := server.Connect(context.Background(), serverT, nil)
	is.NoErr(err)
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(context.Background(), clientT, nil)
	is.NoErr(err)
	defer cs.Close()

	is.Equal(listNames(t, cs), []string{"admin", "own_tool", "projects"}) // the SDK lists by name
	detach()
	is.Equal(listNames(t, cs), []string{"own_tool"}) // exactly what vurb added is gone
}

// fakeServer stands in for *mcp.Server through the ToolServer interface:
// vurb cannot wrap its requests, only its handlers.
type fakeServer struct {
	added   []string
	removed []string
	tools   map[string]mcp.ToolHandler
}

func (f *fakeServer) AddTool(t *mcp.Tool, h mcp.ToolHandler) {
	f.added = append(f.added, t.Name)
	if f.tools == nil {
		f.tools = map[string]mcp.ToolHandler{}
	}
	f.tools[t.Name] = h
}

func (f *fakeServer) RemoveTools(names ...string) {
	f.removed = append(f.removed, names...)
	for _, n := range names {
		delete(f.tools, n)
	}
}

// call calls the tool name with args as the server would, "" when it
// has none.
func (f *fakeServer) call(name, args string) (string, error) {
	h := f.tools[name]
	if h == nil {
		return "", nil
	}
	res, err := h(context.Background(), &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: name, Arguments: json.RawMessage(args)}})
	return resultText(res), err
}

func TestAttachAcceptsAnyToolServer(t *testing.T) {
	is := is.New(t)
	fake := &fakeServer{}
	detach := filterApp(vurb.Flat).Attach(fake, vurb.WithIncludeTags("read"))
	is.Equal(fake.added, []string{"tasks_list"})
	detach()
	is.Equal(fake.removed, []string{"tasks_list"})
}

func TestProgressAndLogNotifications(t *testing.T) {
	is := is.New(t)
	app := vurb.New()
	vurb.Action(app, "jobs.run", func(ctx context.Context, _ noInput) (string, error) {
		for i := 1; i <= 3; i++ {
			if err := vurb.Progress(ctx, float64(i), 3, "step"); err != nil {
				return "", err
			}
		}
		if err := vurb.Log(ctx, "debug", "too fine to see"); err != nil {
			return "", err
		}
		if err := vurb.Log(ctx, "warning", map[string]any{"disk": "low"}); err != nil {
			return "", err
		}
		return "done", nil
	})
	c := vurbtest.New(t, app, vurbtest.LogLevel("info"))
	is.Equal(c.CallText("jobs_run", map[string]any{}, vurbtest.ProgressToken("tok-1")), "done")
	var progress []float64
	for _, p := range c.Progress(3) {
		is.Equal(p.ProgressToken, "tok-1")
		progress = append(progress, p.Progress)
	}
	is.Equal(progress, []float64{1, 2, 3})
	var logs []string
	for _, l := range c.Logs(1) {
		data, _ := json.Marshal(l.Data)
		logs = append(logs, string(l.Level)+" "+l.Logger+" "+string(data))
	}
	is.Equal(logs, []string{`warning jobs {"disk":"low"}`}) // debug was below the client's level
}

func TestClientCancellationReachesHandler(t *testing.T) {
	is := is.New(t)
	app := vurb.New()
	started, sawDone := make(chan struct{}), make(chan struct{})
	vurb.Query(app, "jobs.wait", func(ctx context.Context, _ noInput) (string, error) {
		close(started)
		select {
		case <-ctx.Done():
			close(sawDone)
			return "", ctx.Err()
		case <-time.After(10 * time.Second):
			return "not cancelled", nil
		}
	})
	_, err := vurbtest.New(t, app).CallResult("jobs_wait", map[string]any{}, vurbtest.CancelWhen(started))
	is.True(err != nil)
	select {
	case <-sawDone:
	case <-time.After(5 * time.Second):
		t.Fatal("the handler never saw the cancellation")
	}
}

func TestSamplingAndElicitation(t *testing.T) {
	is := is.New(t)
	app := vurb.New()
	vurb.Query(app, "ai.summarize", func(ctx context.Context, _ noInput) (string, error) {
		res, err := vurb.AskSampling(ctx, "summary", &mcp.CreateMessageParams{
			MaxTokens: 50,
			Messages:  []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: "summarize"}}},
		})
		if err != nil {
			return "", err
		}
		return "model said: " + res.Content.(*mcp.TextContent).Text, nil
	})
	vurb.Action(app, "ai.confirm", func(ctx context.Context, _ noInput) (string, error) {
		res, err := vurb.AskElicitation(ctx, "proceed", &mcp.ElicitParams{Message: "Proceed?", RequestedSchema: map[string]any{
			"type": "object", "properties": map[string]any{"ok": map[string]any{"type": "boolean"}},
		}})
		if err != nil {
			return "", err
		}
		return "user chose " + res.Action, nil
	})
	c := vurbtest.New(t, app, vurbtest.OnSample(vurbtest.Reply("short")), vurbtest.OnElicit(vurbtest.Accept(map[string]any{"ok": true})))
	is.Equal(c.CallText("ai_summarize", nil), "model said: short")
	is.Equal(c.CallText("ai_confirm", nil), "user chose accept")

	// In-process there is no client to ask: the round ends with the
	// request for the caller to answer, not a hang.
	local, err := app.Call(context.Background(), "ai_summarize", nil)
	is.NoErr(err)
	is.True(local.InputRequests["summary"] != nil)
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met in 5s")
		}
		time.Sleep(5 * time.Millisecond)
	}
}
