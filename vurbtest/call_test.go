package vurbtest_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/vurbtest"
)

func TestCallDecodes(t *testing.T) {
	noLeaks(t)
	is := is.New(t)
	c := vurbtest.New(t, newApp())
	// structuredContent, from a struct result
	is.Equal(vurbtest.Call[ProjectList](c, "projects_list", map[string]any{"workspace_id": "w2"}).Projects[0].Name, "Apollo in w2")
	// the text as JSON, from a slice result, which has no structuredContent
	is.Equal(vurbtest.Call[[]string](c, "projects_names", nil), []string{"Apollo", "Gemini"})
	// a narrower type ignores the fields it does not declare, as a client would
	type idsOnly struct {
		Projects []struct {
			ID string `json:"id"`
		} `json:"projects"`
	}
	is.Equal(vurbtest.Call[idsOnly](c, "projects_list", json.RawMessage(`{"workspace_id":"w"}`)).Projects[0].ID, "p1")
}

func TestCallFailsWithTheToolsOwnText(t *testing.T) {
	noLeaks(t)
	for _, tc := range []struct {
		name string
		call func(c *vurbtest.Client)
		want string
	}{
		{"tool error", func(c *vurbtest.Client) {
			vurbtest.Call[ProjectList](c, "projects_delete", DeleteProject{WorkspaceID: "w", ID: "missing"})
		}, `vurbtest: tools/call projects_delete {"workspace_id":"w","id":"missing"}: tool error: [projects_delete] project missing not found`},
		{"invalid arguments", func(c *vurbtest.Client) {
			c.CallText("projects_list", map[string]any{"limit": 0})
		}, `vurbtest: tools/call projects_list {"limit":0}: tool error: [projects_list] invalid arguments: `},
		{"unknown tool", func(c *vurbtest.Client) {
			c.CallText("nope", nil)
		}, `vurbtest: tools/call nope: `},
		{"text is not the type", func(c *vurbtest.Client) {
			vurbtest.Call[int](c, "projects_delete", DeleteProject{WorkspaceID: "w", ID: "p1"})
		}, `its text does not decode into int: invalid character 'd'`},
		{"structured is not the type", func(c *vurbtest.Client) {
			vurbtest.Call[[]string](c, "projects_list", ListProjects{WorkspaceID: "w"})
		}, `its structuredContent does not decode into []string: json: cannot unmarshal object`},
		{"error expected, success got", func(c *vurbtest.Client) {
			c.CallError("projects_delete", DeleteProject{WorkspaceID: "w", ID: "p1"})
		}, `vurbtest: tools/call projects_delete {"workspace_id":"w","id":"p1"} succeeded with "deleted p1"; want a tool error (isError)`},
		{"error expected, protocol error got", func(c *vurbtest.Client) {
			c.CallError("nope", nil)
		}, `vurbtest: tools/call nope: protocol error `},
		{"arguments that do not encode", func(c *vurbtest.Client) {
			c.CallResult("projects_list", map[string]any{"f": func() {}})
		}, `the arguments do not encode to JSON: json: unsupported type: func()`},
		{"prompt error", func(c *vurbtest.Client) {
			c.GetPrompt("greet", nil)
		}, `vurbtest: prompts/get greet: `},
		{"prompt error expected", func(c *vurbtest.Client) {
			c.GetPromptError("greet", map[string]string{"name": "Ada"})
		}, `vurbtest: prompts/get greet succeeded; want an error`},
		{"resource error", func(c *vurbtest.Client) {
			c.ReadResource("nothing://here")
		}, `vurbtest: resources/read nothing://here: `},
		{"resource error expected", func(c *vurbtest.Client) {
			c.ReadResourceError("config://app")
		}, `vurbtest: resources/read config://app succeeded; want an error`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mustFail(t, func(t testing.TB) { tc.call(vurbtest.New(t, newApp())) }, tc.want)
		})
	}
}

func TestCallErrorAndCallResult(t *testing.T) {
	noLeaks(t)
	is := is.New(t)
	c := vurbtest.New(t, newApp())
	is.Equal(c.CallError("projects_list", map[string]any{"workspace_id": "w", "limit": 500}),
		"[projects_list] invalid arguments: limit: must be at most 100")

	res, err := c.CallResult("projects_delete", DeleteProject{WorkspaceID: "w", ID: "missing"})
	is.NoErr(err)
	is.True(res.IsError)
	is.Equal(vurbtest.Text(res), "[projects_delete] project missing not found")

	_, err = c.CallResult("nope", nil)
	var rpc *jsonrpc.Error
	is.True(errors.As(err, &rpc))
	is.Equal(rpc.Code, int64(jsonrpc.CodeInvalidParams))
	is.True(strings.Contains(rpc.Message, `unknown tool "nope"`))

	err = c.GetPromptError("greet", map[string]string{"nme": "Ada"})
	is.True(strings.Contains(err.Error(), `unknown field "nme"`))
	is.True(c.ReadResourceError("users://a/b") != nil) // a variable never spans a '/'
}

func TestTimeoutNamesItself(t *testing.T) {
	noLeaks(t)
	is := is.New(t)
	app := vurb.New()
	vurb.Query(app, "jobs.wait", func(ctx context.Context, _ noInput) (string, error) {
		<-ctx.Done()
		return "", ctx.Err()
	})
	c := vurbtest.New(t, app, vurbtest.Timeout(50*time.Millisecond))
	_, err := c.CallResult("jobs_wait", nil)
	is.True(errors.Is(err, context.DeadlineExceeded))
	is.True(strings.HasPrefix(err.Error(), "no answer within 50ms (vurbtest.Timeout): "))

	// The test's own deadline is the test's, not vurbtest's.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	_, err = c.CallResult("jobs_wait", nil, vurbtest.Context(ctx))
	is.True(errors.Is(err, context.DeadlineExceeded))
	is.True(!strings.Contains(err.Error(), "vurbtest.Timeout"))
}

func TestMetaAndProgressTokenCombine(t *testing.T) {
	noLeaks(t)
	is := is.New(t)
	app := vurb.New()
	vurb.Query(app, "jobs.step", func(ctx context.Context, _ noInput) (string, error) {
		return "stepped", vurb.Progress(ctx, 1, 1, "one")
	})
	c := vurbtest.New(t, app)
	is.Equal(c.CallText("jobs_step", nil, vurbtest.Meta(mcp.Meta{"trace": "t1"}), vurbtest.ProgressToken("p9")), "stepped")
	is.Equal(c.Progress(1)[0].ProgressToken, "p9")
	is.Equal(c.CallText("jobs_step", nil), "stepped") // no token, no progress
	is.Equal(len(c.Progress(0)), 1)
}
