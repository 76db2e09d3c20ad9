package bench

import (
	"os"
	"slices"
	"strings"
)

// The served benchmarks (BenchmarkServed, TestServedTable) compare the
// same docs_search tool served by each contender over each transport. The
// server runs in a process of its own (internal/servedserver), so its CPU
// and allocations are measured apart from the load generator's.

// servedContenders are the servers compared, in table order: vurb, the
// go-sdk's raw server.AddTool (what vurb builds on), mcp-go.
var servedContenders = []string{"vurb", "vurb-base", "vurb-inline", "vurb-sdk", "gosdk-raw", "mcp-go"}

// servedBase is the servedserver binary that vurb-base runs: the vurb
// contender of another build (SERVED_BASE=path), so that a change to vurb
// is measured against the build before it in the same interleaved run.
func servedBase() string { return os.Getenv("SERVED_BASE") }

// servedSupports reports whether contender serves transport: mcp-go does
// not speak revision 2026-07-28, and vurb-sdk (vurb with its fast lane off)
// differs from vurb over HTTP only.
func servedSupports(contender, transport string) bool {
	if only := os.Getenv("SERVED_CONTENDERS"); only != "" && !slices.Contains(strings.Split(only, ","), contender) {
		return false
	}
	if only := os.Getenv("SERVED_TRANSPORTS"); only != "" && !slices.Contains(strings.Split(only, ","), transport) {
		return false
	}
	switch {
	case contender == "vurb-base" && servedBase() == "":
		return false
	case contender == "mcp-go" && transport == "http-2026":
		return false
	case contender == "vurb-sdk" && transport == "stdio":
		return false
	}
	return true
}

// servedTransport is one way of serving and the numbers of concurrent
// clients it is measured with. Stdio has one client by nature, and it
// waits for each answer before it sends the next request.
type servedTransport struct {
	name    string
	clients []int
}

var servedTransports = []servedTransport{
	{"http-stateful", []int{1, 8, 64}},
	{"http-stateless", []int{1, 8, 64}},
	{"http-2026", []int{1, 8, 64}}, // sessionless revision 2026-07-28, default options
	{"stdio", []int{1}},
}

// servedProtocolVersion is the newest handshake-era revision that the
// go-sdk v1.8.0 and mcp-go both negotiate, sent in every request's
// Mcp-Protocol-Version header. The sessionless 2026-07-28 revision is
// refused by stateful go-sdk servers and needs the Mcp-Method and Mcp-Name
// headers and a _meta protocolVersion, so one request could not be sent
// alike to every contender.
const servedProtocolVersion = "2025-11-25"

// The JSON-RPC messages the load generator sends, serialised once. A call
// is callPrefix, the request id, callSuffix.
const (
	initializeBody = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"` +
		servedProtocolVersion + `","capabilities":{},"clientInfo":{"name":"bench-load","version":"1.0.0"}}}`
	initializedBody = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	callPrefix      = `{"jsonrpc":"2.0","id":`
	callSuffix      = `,"method":"tools/call","params":{"name":"` + peerTool + `","arguments":{"query":"golang","limit":10}}}`
	// callSuffix2026 carries the per-request _meta of revision 2026-07-28.
	callSuffix2026 = `,"method":"tools/call","params":{"name":"` + peerTool + `","arguments":{"query":"golang","limit":10},` +
		`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
)
