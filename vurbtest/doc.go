// Package vurbtest tests a vurb server the way MCP clients use it: a real
// go-sdk client talks to the app over the SDK's in-memory transport (or,
// with OverHTTP, over a loopback HTTP server), so a test sees exactly what
// a client sees, through the same session and the same encoding, in a few
// lines:
//
//	func TestProjects(t *testing.T) {
//		c := vurbtest.New(t, myapp.New())
//		got := vurbtest.Call[myapp.ProjectList](c, "projects_list", myapp.ListProjects{WorkspaceID: "w1"})
//		if len(got.Projects) != 1 {
//			t.Fatalf("got %d projects, want 1", len(got.Projects))
//		}
//	}
//
// It is a package of its own, apart from vurb, because it imports
// package testing and serves only tests; it uses the standard testing
// package and nothing else, so no assertion library comes with it.
//
// # What a test controls
//
//   - the protocol revision the client negotiates (Protocol): 2025-11-25 by
//     default, or an older handshake-era one, or the sessionless 2026-07-28;
//   - the transport (OverHTTP, with the test's own HTTP middleware) and the
//     serve options (Serve: tag filters, WithStateless, ...);
//   - who calls (Identity): a verified token and request headers, without
//     an identity provider;
//   - the client's side: answers to elicitation and sampling (OnElicit,
//     OnSample), the roots it offers (Roots), the log level it asks for
//     (LogLevel), and cancellation of a call (CancelWhen).
//
// What the client receives is recorded: progress and log notifications and
// resource updates (Client.Progress, Client.Logs, Client.ResourceUpdates).
// What the app logs on the server's side goes to the test's output with
// Logger: vurb.New(vurb.WithLogger(vurbtest.Logger(t))).
//
// # Failing, and not failing
//
// Helpers that expect success (Call, CallText, Tools, GetPrompt, ...) fail
// the test with Fatalf, quoting the tool's own error text, so a test reads
// like the code under test. Tests that expect a failure use the variants
// that return it: CallError for a tool error (isError), CallResult for
// whatever the client got, GetPromptError and ReadResourceError for a
// protocol error.
//
// Everything a Client starts is stopped in t.Cleanup: the client session,
// the server session or HTTP server, the connections. A Client leaks no
// goroutine once its test ends.
//
// # Golden files
//
// Golden compares the tools/list a client receives with a file, and
// GoldenFile any bytes of your own; both rewrite the file instead when the
// test runs with VURBTEST_UPDATE=1 in the environment (UpdateEnv):
// VURBTEST_UPDATE=1 go test ./... rewrites every golden file of a module,
// and a failing comparison prints the command that rewrites its own. The
// package registers no command-line flag, so a test package that imports
// it may define any flag it likes; Update reports the switch, for golden
// files of your own.
package vurbtest
