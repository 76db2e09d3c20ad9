package vurbotel_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/vurbtest"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
)

// Calls of tools the app does not have, each with its own 100 KB name,
// leave no trace of the names: the spans are named "tools/call", their
// gen_ai.tool.name is "_OTHER", their status description is cut, and
// they share one series; a real tool called afterwards gets its own.
// Before, each name became a span name and a series of its own, and once
// the series limit was reached (2,000 by default, 100 here) a real tool's
// calls went to the overflow series.
func TestUnknownToolNamesAreBounded(t *testing.T) {
	is := is.New(t)
	const limit, calls = 100, 300
	tel := newTelemetry(t)
	tel.reader = sdkmetric.NewManualReader()
	tel.mp = sdkmetric.NewMeterProvider(sdkmetric.WithReader(tel.reader), sdkmetric.WithCardinalityLimit(limit))
	t.Cleanup(func() { _ = tel.mp.Shutdown(context.Background()) })
	c := vurbtest.New(t, newApp(tel))

	for i := range calls {
		name := fmt.Sprintf("%06d", i) + strings.Repeat("x", 100<<10)
		_, err := c.CallResult(name, nil)
		is.True(err != nil) // an unknown tool is a protocol error
	}
	is.Equal(c.CallText("docs_search", searchIn{Query: "after"}), "after")
	tel.span(t, "tools/call docs_search")

	unknown := 0
	for _, s := range tel.spans.Ended() {
		is.True(len(s.Name()) <= 32) // no client's name
		for _, kv := range s.Attributes() {
			is.True(len(kv.Value.Emit()) <= 512) // no attribute holds a name
		}
		is.True(len(s.Status().Description) <= 512)
		if s.Name() == "tools/call" {
			unknown++
			is.Equal(attrs(s.Attributes())["gen_ai.tool.name"], "_OTHER")
			is.True(strings.HasPrefix(s.Status().Description, "unknown tool")) // still says what failed
		}
	}
	is.Equal(unknown, calls)

	h := tel.collect(t)["mcp.server.operation.duration"].Data.(metricdata.Histogram[float64])
	counts := map[string]uint64{}
	for _, p := range h.DataPoints {
		_, overflow := p.Attributes.Value("otel.metric.overflow")
		is.True(!overflow)
		v, _ := p.Attributes.Value("gen_ai.tool.name")
		counts[v.AsString()] += p.Count
	}
	is.Equal(counts["_OTHER"], uint64(calls)) // the unknown calls share a series
	is.Equal(counts["docs_search"], uint64(1))
	is.True(len(h.DataPoints) <= 4) // initialize, the unknown calls, docs_search (and notifications/initialized)
}

// An unknown prompt is recorded as "_OTHER" until a request proves it
// exists; a real prompt, once got, is recorded by name.
func TestUnknownPromptNamesAreBounded(t *testing.T) {
	is := is.New(t)
	tel := newTelemetry(t)
	c := vurbtest.New(t, newApp(tel))

	is.True(c.GetPromptError(strings.Repeat("p", 10<<10), nil) != nil)
	c.GetPrompt("review", nil)
	c.GetPrompt("review", nil)

	is.Equal(attrs(tel.span(t, "prompts/get").Attributes())["gen_ai.prompt.name"], "_OTHER")
	for _, s := range tel.spansNamed(t, "prompts/get review", 2) {
		is.Equal(attrs(s.Attributes())["gen_ai.prompt.name"], "review")
	}
}

// A client that asks for a made-up protocol version in its initialize
// makes no series of its own: the version recorded is the one the server
// negotiated. Before, 50 such sessions made 50 active_sessions series,
// each keyed by the client's 1 KB string.
func TestMadeUpProtocolVersionMakesNoSeries(t *testing.T) {
	is := is.New(t)
	tel := newTelemetry(t)
	app := newApp(tel)

	var conn mcp.Connection
	for i := range 50 {
		version := fmt.Sprintf("%04d", i) + strings.Repeat("v", 1<<10)
		var res *mcp.InitializeResult
		conn, res = initialize(t, app.NewServer(), version)
		is.True(slices.Contains(mcp.SupportedProtocolVersions(), res.ProtocolVersion)) // the server negotiated one it knows
	}
	// A later request of such a session records the negotiated version,
	// not the one the session's client asked for.
	send(t, conn, &jsonrpc.Request{Method: "notifications/initialized", Params: json.RawMessage(`{}`)})
	id, _ := jsonrpc.MakeID(float64(2))
	send(t, conn, &jsonrpc.Request{ID: id, Method: "tools/list", Params: json.RawMessage(`{}`)})
	if _, err := conn.Read(context.Background()); err != nil {
		t.Fatal(err)
	}

	sessions := tel.collect(t)["vurb.server.active_sessions"].Data.(metricdata.Sum[int64])
	is.Equal(len(sessions.DataPoints), 1) // one series, for the negotiated version
	is.Equal(sessions.DataPoints[0].Value, int64(50))
	v, _ := sessions.DataPoints[0].Attributes.Value("mcp.protocol.version")
	is.True(slices.Contains(mcp.SupportedProtocolVersions(), v.AsString()))

	for _, s := range tel.spansNamed(t, "initialize", 50) {
		is.Equal(attrs(s.Attributes())["mcp.protocol.version"], v.AsString())
	}
	is.Equal(attrs(tel.span(t, "tools/list").Attributes())["mcp.protocol.version"], v.AsString())
	h := tel.collect(t)["mcp.server.operation.duration"].Data.(metricdata.Histogram[float64])
	for _, p := range h.DataPoints {
		got, _ := p.Attributes.Value("mcp.protocol.version")
		is.True(len(got.AsString()) < 16)
	}
}

// initialize connects to server over an in-memory transport and sends an
// initialize request asking for version, as a client that writes its own
// JSON-RPC can; it returns the connection and the server's answer.
func initialize(t *testing.T, server *mcp.Server, version string) (mcp.Connection, *mcp.InitializeResult) {
	t.Helper()
	ctx := context.Background()
	serverT, clientT := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, serverT, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ss.Close() })
	conn, err := clientT.Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	params, _ := json.Marshal(map[string]any{
		"protocolVersion": version,
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": "raw", "version": "1"},
	})
	id, _ := jsonrpc.MakeID(float64(1))
	send(t, conn, &jsonrpc.Request{ID: id, Method: "initialize", Params: params})
	msg, err := conn.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	resp, ok := msg.(*jsonrpc.Response)
	if !ok || resp.Error != nil {
		t.Fatalf("initialize: %#v", msg)
	}
	var res mcp.InitializeResult
	if err := json.Unmarshal(resp.Result, &res); err != nil {
		t.Fatal(err)
	}
	return conn, &res
}

func send(t *testing.T, conn mcp.Connection, msg jsonrpc.Message) {
	t.Helper()
	if err := conn.Write(context.Background(), msg); err != nil {
		t.Fatal(err)
	}
}

// A resource URI a client chooses is cut, on the span and in its name.
func TestResourceURIIsCut(t *testing.T) {
	is := is.New(t)
	tel := newTelemetry(t)
	c := vurbtest.New(t, newApp(tel))

	uri := "config://" + strings.Repeat("u", 10<<10)
	is.True(c.ReadResourceError(uri) != nil)
	got := attrs(tel.span(t, "resources/read").Attributes())["mcp.resource.uri"]
	is.True(strings.HasPrefix(got, "config://uuu"))
	is.True(len(got) <= 256+len("…"))
}
