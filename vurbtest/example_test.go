package vurbtest_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/vurbtest"
)

// The examples drive newApp, a small project tracker (fixture_test.go).
// Each runs its body as go test runs a test: in your code the body is
// func TestX(t *testing.T) { ... }.

func ExampleNew() {
	test(func(t testing.TB) {
		c := vurbtest.New(t, newApp())
		fmt.Println(c.Protocol())
		fmt.Println(c.CallText("projects_delete", DeleteProject{WorkspaceID: "w1", ID: "p1"}))
	})
	// Output:
	// 2025-11-25
	// deleted p1
}

func ExampleCall() {
	test(func(t testing.TB) {
		c := vurbtest.New(t, newApp())
		list := vurbtest.Call[ProjectList](c, "projects_list", ListProjects{WorkspaceID: "w1"})
		fmt.Println(list.Projects[0].Name)
		names := vurbtest.Call[[]string](c, "projects_names", nil) // no structuredContent: the text as JSON
		fmt.Println(names)
	})
	// Output:
	// Apollo in w1
	// [Apollo Gemini]
}

func ExampleCall_toolError() {
	test(func(t testing.TB) {
		c := vurbtest.New(t, newApp())
		vurbtest.Call[ProjectList](c, "projects_delete", DeleteProject{WorkspaceID: "w1", ID: "missing"})
		fmt.Println("not reached: the test stopped")
	})
	// Output:
	// FATAL: vurbtest: tools/call projects_delete {"workspace_id":"w1","id":"missing"}: tool error: [projects_delete] project missing not found
}

func ExampleClient_CallText() {
	test(func(t testing.TB) {
		c := vurbtest.New(t, newApp())
		fmt.Println(c.CallText("projects_list", map[string]any{"workspace_id": "w1"}))
	})
	// Output:
	// {"projects":[{"id":"p1","name":"Apollo in w1"}]}
}

func ExampleClient_CallError() {
	test(func(t testing.TB) {
		c := vurbtest.New(t, newApp())
		fmt.Println(c.CallError("projects_list", map[string]any{"workspace_id": "w1", "limit": 500}))
		fmt.Println(c.CallError("projects_delete", DeleteProject{WorkspaceID: "w1", ID: "missing"}))
	})
	// Output:
	// [projects_list] invalid arguments: limit: must be at most 100
	// [projects_delete] project missing not found
}

func ExampleClient_CallResult() {
	test(func(t testing.TB) {
		c := vurbtest.New(t, newApp())
		_, err := c.CallResult("projects_archive", nil)
		fmt.Println(err)
	})
	// Output:
	// calling "tools/call": unknown tool "projects_archive"
}

func ExampleText() {
	res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "one"}, &mcp.ImageContent{}, &mcp.TextContent{Text: "two"}}}
	fmt.Printf("%q\n", vurbtest.Text(res))
	// Output:
	// "one\ntwo"
}

func ExampleClient_Tools() {
	test(func(t testing.TB) {
		c := vurbtest.New(t, newApp(), vurbtest.Serve(vurb.WithIncludeTags("read")))
		for _, tool := range c.Tools() {
			fmt.Println(tool.Name, tool.Annotations.ReadOnlyHint)
		}
	})
	// Output:
	// projects_list true
	// projects_names true
}

func ExampleClient_Prompts() {
	test(func(t testing.TB) {
		c := vurbtest.New(t, newApp())
		for _, p := range c.Prompts() {
			fmt.Println(p.Name, "-", p.Description, "- needs", p.Arguments[0].Name)
		}
	})
	// Output:
	// greet - Greet someone - needs name
}

func ExampleClient_GetPrompt() {
	test(func(t testing.TB) {
		c := vurbtest.New(t, newApp())
		res := c.GetPrompt("greet", map[string]string{"name": "Ada"})
		fmt.Println(res.Messages[0].Content.(*mcp.TextContent).Text)
	})
	// Output:
	// Hello, Ada!
}

func ExampleClient_GetPromptError() {
	test(func(t testing.TB) {
		c := vurbtest.New(t, newApp())
		fmt.Println(c.GetPromptError("greet", nil))
	})
	// Output:
	// calling "prompts/get": prompt "greet": invalid arguments: name: is required
}

func ExampleClient_Resources() {
	test(func(t testing.TB) {
		c := vurbtest.New(t, newApp())
		for _, r := range c.Resources() {
			fmt.Println(r.URI, r.MIMEType)
		}
	})
	// Output:
	// config://app application/json
}

func ExampleClient_ResourceTemplates() {
	test(func(t testing.TB) {
		c := vurbtest.New(t, newApp())
		fmt.Println(c.ResourceTemplates()[0].URITemplate)
	})
	// Output:
	// users://{id}
}

func ExampleClient_ReadResource() {
	test(func(t testing.TB) {
		c := vurbtest.New(t, newApp())
		fmt.Println(c.ReadResource("config://app").Contents[0].Text)
		fmt.Println(c.ReadResource("users://u7").Contents[0].Text)
	})
	// Output:
	// {"debug":false}
	// user u7
}

func ExampleClient_ReadResourceError() {
	test(func(t testing.TB) {
		c := vurbtest.New(t, newApp())
		fmt.Println(c.ReadResourceError("users://a/b") != nil)
	})
	// Output:
	// true
}

func ExampleClient_Session() {
	test(func(t testing.TB) {
		c := vurbtest.New(t, newApp())
		fmt.Println(c.Session().InitializeResult().ServerInfo.Name)
	})
	// Output:
	// tracker
}

func ExampleGolden() {
	test(func(t testing.TB) {
		app := vurb.New()
		vurb.Query(app, "projects.names", func(context.Context, struct{}) ([]string, error) {
			return []string{"Apollo"}, nil
		}).Describe("List project names")
		// The file holds the tools/list a client receives; VURBTEST_UPDATE=1 go test rewrites it.
		vurbtest.Golden(t, "testdata/tools.json", app)
		fmt.Println("tools/list matches testdata/tools.json")
	})
	// Output:
	// tools/list matches testdata/tools.json
}

func ExampleGoldenFile() {
	test(func(t testing.TB) {
		manifest := []byte("{\n  \"name\": \"tracker\"\n}\n") // something your code renders
		vurbtest.GoldenFile(t, "testdata/manifest.json", manifest)
		fmt.Println("matches testdata/manifest.json")
	})
	// Output:
	// matches testdata/manifest.json
}

// Update is the switch for golden files of your own, written by code that
// GoldenFile does not cover. (No output: it depends on how go test runs.)
func ExampleUpdate() {
	test(func(t testing.TB) {
		if vurbtest.Update() { // VURBTEST_UPDATE=1 go test ./...
			t.Logf("rewriting testdata")
		}
	})
}

// test runs body as go test runs a test function: its cleanups run when
// it ends; a failure prints, and Fatalf stops body.
func test(body func(t testing.TB)) {
	t := &exampleT{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		body(t)
	}()
	<-done
	for i := len(t.cleanups) - 1; i >= 0; i-- {
		t.cleanups[i]()
	}
}

// exampleT is the testing.TB of the examples.
type exampleT struct {
	testing.TB
	cleanups []func()
}

func (*exampleT) Helper()                   {}
func (*exampleT) Name() string              { return "Example" }
func (*exampleT) Logf(string, ...any)       {}
func (*exampleT) Output() io.Writer         { return os.Stdout }
func (t *exampleT) Cleanup(f func())        { t.cleanups = append(t.cleanups, f) }
func (*exampleT) Errorf(f string, a ...any) { fmt.Printf("ERROR: "+f+"\n", a...) }
func (*exampleT) Fatalf(f string, a ...any) { fmt.Printf("FATAL: "+f+"\n", a...); runtime.Goexit() }
