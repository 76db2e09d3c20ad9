// Package bench holds the benchmarks that back vurb's performance promises
// (issue #8): dispatch that does not grow with the number of actions or the
// depth of middleware, an in-process call close to the cost of decoding the
// arguments, and a served call that adds almost nothing to the go-sdk.
//
// It is a module of its own (bench/go.mod, with a replace to the root) so
// that the peers it compares against, github.com/mark3labs/mcp-go among
// them, never enter vurb's own go.mod. Everything lives in _test.go files
// but internal/servedserver, the server process the served benchmarks
// start (a server must run apart from its load to be measured apart); see
// README.md for how to run it and what it found.
package bench
