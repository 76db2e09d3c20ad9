package vurbtest_test

import (
	"context"
	"testing"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/vurbtest"
)

// transports are the ways New serves an app.
var transports = []struct {
	name string
	opts []vurbtest.Option
}{
	{"memory", nil},
	{"http", []vurbtest.Option{vurbtest.OverHTTP()}},
	{"http-stateless", []vurbtest.Option{vurbtest.OverHTTP(), vurbtest.Serve(vurb.WithStateless())}},
}

var revisions = []string{"2025-06-18", vurbtest.DefaultProtocol, vurbtest.Sessionless}

func TestEveryRevisionOverEveryTransport(t *testing.T) {
	noLeaks(t)
	for _, rev := range revisions {
		for _, tr := range transports {
			t.Run(rev+"/"+tr.name, func(t *testing.T) {
				is := is.New(t)
				c := vurbtest.New(t, newApp(), append(tr.opts, vurbtest.Protocol(rev), vurbtest.LogLevel("info"))...)
				is.Equal(c.Protocol(), rev)

				got := vurbtest.Call[ProjectList](c, "projects_list", ListProjects{WorkspaceID: "w1"})
				is.Equal(got, ProjectList{Projects: []Project{{ID: "p1", Name: "Apollo in w1"}}})
				is.Equal(c.CallText("projects_delete", DeleteProject{WorkspaceID: "w1", ID: "p1"}), "deleted p1")
				is.Equal(c.CallError("projects_delete", DeleteProject{WorkspaceID: "w1", ID: "missing"}),
					"[projects_delete] project missing not found")

				var names []string
				for _, tool := range c.Tools() {
					names = append(names, tool.Name)
				}
				is.Equal(names, []string{"ai_confirm", "ai_summarize", "fs_roots", "jobs_run", "projects_delete", "projects_list", "projects_names"})
				is.Equal(len(c.Prompts()), 1)
				is.Equal(c.GetPrompt("greet", map[string]string{"name": "Ada"}).Messages[0].Content, &mcp.TextContent{Text: "Hello, Ada!"})
				is.Equal(len(c.Resources()), 1)
				is.Equal(c.ResourceTemplates()[0].URITemplate, "users://{id}")
				is.Equal(c.ReadResource("users://u7").Contents[0].Text, "user u7")

				is.Equal(c.CallText("jobs_run", nil, vurbtest.ProgressToken("job-1")), "done")
				var steps []string
				for _, p := range c.Progress(3) {
					is.Equal(p.ProgressToken, "job-1")
					steps = append(steps, p.Message)
				}
				is.Equal(steps, []string{"step 1", "step 2", "step 3"})
				logs := c.Logs(1)
				is.Equal(len(logs), 1) // debug is below the level asked for
				is.Equal(logs[0].Level, mcp.LoggingLevel("warning"))
				is.Equal(logs[0].Logger, "jobs")
				is.Equal(logs[0].Data, map[string]any{"disk": "low"})
			})
		}
	}
}

func TestNewFailsOnAnotherRevision(t *testing.T) {
	noLeaks(t)
	handshakeOnly := vurb.WithServerOptions(&mcp.ServerOptions{SupportedProtocolVersions: []string{"2025-11-25", "2025-06-18"}})
	mustFail(t, func(t testing.TB) {
		vurbtest.New(t, newApp(handshakeOnly), vurbtest.Protocol(vurbtest.Sessionless))
	}, "asked for protocol 2026-07-28, the server settled on 2025-11-25")
}

func TestNewFailsOnHTTPSettingsInMemory(t *testing.T) {
	noLeaks(t)
	mustFail(t, func(t testing.TB) {
		vurbtest.New(t, newApp(), vurbtest.Serve(vurb.WithStateless()))
	}, "WithStateless only apply to HTTP", "vurbtest serves in memory unless given vurbtest.OverHTTP()")
}

func TestServeFiltersTools(t *testing.T) {
	noLeaks(t)
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			is := is.New(t)
			c := vurbtest.New(t, newApp(), append(tr.opts, vurbtest.Serve(vurb.WithIncludeTags("read")))...)
			var names []string
			for _, tool := range c.Tools() {
				names = append(names, tool.Name)
			}
			is.Equal(names, []string{"projects_list", "projects_names"})
			_, err := c.CallResult("projects_delete", DeleteProject{WorkspaceID: "w", ID: "p1"})
			is.True(err != nil) // hidden is absent
		})
	}
}

func TestClientOptionsPassThrough(t *testing.T) {
	noLeaks(t)
	is := is.New(t)
	seen := make(chan float64, 3)
	c := vurbtest.New(t, newApp(), vurbtest.ClientOptions(&mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			seen <- r.Params.Progress
		},
	}))
	c.CallText("jobs_run", nil, vurbtest.ProgressToken(7))
	is.Equal(len(c.Progress(3)), 3) // recorded by vurbtest
	is.Equal([]float64{<-seen, <-seen, <-seen}, []float64{1, 2, 3})
}

func TestSessionIsTheLiveSession(t *testing.T) {
	noLeaks(t)
	is := is.New(t)
	c := vurbtest.New(t, newApp())
	res, err := c.Session().ListTools(context.Background(), nil)
	is.NoErr(err)
	is.Equal(len(res.Tools), 7)
	is.Equal(c.Session().InitializeResult().ServerInfo.Name, "tracker")
}
