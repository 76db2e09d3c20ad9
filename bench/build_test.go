package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
)

// BenchmarkBuild times App.Build of a freshly defined app per iteration;
// the definition (vurb.New, Tool, Query) is outside the timer. The apps
// have the layout of BenchmarkCall. ns/action is the time per action:
// constant when build time grows linearly.
//
// shape=one-tool is a single grouped tool holding every action, the shape
// of the reference figures (88 ms for 1,000 actions, 616 ms for 10,000).
func BenchmarkBuild(b *testing.B) {
	for _, exp := range []vurb.Exposition{vurb.Flat, vurb.Grouped} {
		for _, n := range []int{1_000, 10_000, 100_000} {
			b.Run(fmt.Sprintf("exposition=%s/actions=%d", exp, n), func(b *testing.B) {
				benchBuild(b, n, func() *vurb.App { app, _, _ := defineApp(n, exp); return app })
			})
		}
	}
	for _, n := range []int{1_000, 10_000} {
		b.Run(fmt.Sprintf("shape=one-tool/actions=%d", n), func(b *testing.B) {
			benchBuild(b, n, func() *vurb.App { return defineOneTool(n) })
		})
	}
}

func benchBuild(b *testing.B, actions int, define func() *vurb.App) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		app := define()
		// The definition's garbage and the previous app are collected
		// here, not on the build's time: otherwise the larger apps pay for
		// marking the smaller ones' leftovers and the ratio measures the
		// collector's schedule rather than the build.
		runtime.GC()
		b.StartTimer()
		app.Build()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(actions), "ns/action")
}

// defineOneTool is one grouped tool "t" of n actions.
func defineOneTool(n int) *vurb.App {
	app := vurb.New(vurb.WithExposition(vurb.Grouped))
	t := app.Tool("t")
	for j := range n {
		vurb.Query(t, fmt.Sprintf("a%d", j), search).Describe("Search the documents")
	}
	return app
}

// attachTools is the size of the app BenchmarkAttach attaches: 100 actions
// in flat exposition, so 100 wire tools.
const attachTools = 100

// BenchmarkAttach registers 100 tools on a fresh go-sdk server per
// iteration (what a stateless HTTP deployment may do per request):
//
//   - attach=vurb: App.Attach of a built app;
//   - attach=raw-rawmessage: 100 server.AddTool calls with precomputed
//     tools whose schemas are json.RawMessage, the representation vurb
//     uses (they are vurb's own wire tools, so the SDK does the same work);
//   - attach=raw-jsonschema: the same with *jsonschema.Schema, the type
//     the SDK prefers: it remarshals any other schema type on AddTool.
//
// The fresh servers are made outside the timer. newserver=... adds
// mcp.NewServer itself: app.NewServer against mcp.NewServer + 100 AddTool.
func BenchmarkAttach(b *testing.B) {
	app, attach := attachVariants(b)
	b.Run("attach=vurb", func(b *testing.B) { benchAttach(b, attach[0]) })
	b.Run("attach=raw-rawmessage", func(b *testing.B) { benchAttach(b, attach[1]) })
	b.Run("attach=raw-jsonschema", func(b *testing.B) { benchAttach(b, attach[2]) })

	b.Run("newserver=vurb", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			app.NewServer()
		}
	})
	for i, name := range []string{"raw-rawmessage", "raw-jsonschema"} {
		b.Run("newserver="+name, func(b *testing.B) {
			add := attach[i+1]
			b.ReportAllocs()
			for b.Loop() {
				add(newServer())
			}
		})
	}
}

// attachVariants builds the app of 100 tools and returns it with the three
// ways of registering its tools on a server: vurb's Attach, then AddTool
// with json.RawMessage schemas, then AddTool with *jsonschema.Schema.
func attachVariants(b *testing.B) (*vurb.App, []func(*mcp.Server)) {
	app, _, _ := defineApp(attachTools, vurb.Flat, vurb.WithLogger(discard))
	app.Build()
	wire := app.Tools()
	if len(wire) != attachTools {
		b.Fatalf("%d wire tools, want %d", len(wire), attachTools)
	}
	rawTools := make([]*mcp.Tool, len(wire))
	schemaTools := make([]*mcp.Tool, len(wire))
	for i, t := range wire {
		raw := *t
		raw.InputSchema = append(json.RawMessage(nil), t.InputSchema.(json.RawMessage)...)
		rawTools[i] = &raw
		var s jsonschema.Schema
		if err := json.Unmarshal(raw.InputSchema.(json.RawMessage), &s); err != nil {
			b.Fatal(err)
		}
		typed := *t
		typed.InputSchema = &s
		schemaTools[i] = &typed
	}
	handler := func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return rawSearch(ctx, req)
	}
	addAll := func(tools []*mcp.Tool) func(*mcp.Server) {
		return func(s *mcp.Server) {
			for _, t := range tools {
				s.AddTool(t, handler)
			}
		}
	}
	return app, []func(*mcp.Server){func(s *mcp.Server) { app.Attach(s) }, addAll(rawTools), addAll(schemaTools)}
}

func newServer() *mcp.Server {
	return mcp.NewServer(&mcp.Implementation{Name: "bench", Version: "1.0.0"}, nil)
}

// benchAttach times attach on fresh servers made in untimed batches, so
// that the timer is stopped once per batch, not once per iteration.
func benchAttach(b *testing.B, attach func(*mcp.Server)) {
	const batch = 256
	servers := make([]*mcp.Server, 0, batch)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if len(servers) == 0 {
			b.StopTimer()
			for range min(batch, b.N-i) {
				servers = append(servers, newServer())
			}
			b.StartTimer()
		}
		attach(servers[len(servers)-1])
		servers = servers[:len(servers)-1]
	}
}
