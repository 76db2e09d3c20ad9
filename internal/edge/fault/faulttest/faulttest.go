// Package faulttest holds every edge path that runs a handler to the one
// scheme of package fault, for the tests of the packages those paths live
// in: a route that panics, a runtime that logs to a buffer, and the
// check of what the client and the log then read.
package faulttest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/engine"
)

// PanicRoute is a route named "boom" whose call panics outside any
// handler, where the engine contains nothing.
type PanicRoute struct{}

// Wire is the route's tool, "boom".
func (PanicRoute) Wire() *mcp.Tool { return &mcp.Tool{Name: "boom"} }

// Endpoints is none.
func (PanicRoute) Endpoints() []*engine.Endpoint { return nil }

// Call panics.
func (PanicRoute) Call(context.Context, json.RawMessage, *engine.Origin) (*mcp.CallToolResult, error) {
	panic("boom")
}

// Runtime is a runtime whose log is the returned buffer, one JSON entry a
// line, and whose internal-error message shows the reference.
func Runtime() (*engine.Runtime, *bytes.Buffer) {
	var log bytes.Buffer
	return &engine.Runtime{Logger: slog.New(slog.NewJSONHandler(&log, nil)),
		Messages: engine.Messages{Internal: "internal error (ref %s)"}}, &log
}

// Check holds the answer err to a panicking call of the tool boom, and
// the log of the Runtime it ran on, to the one scheme: an internal error
// whose message is the runtime's with a reference from its sequence, and
// one log entry carrying the same reference, the method, the target and
// (when stack is not empty) a stack naming stack.
func Check(t *testing.T, err error, log *bytes.Buffer, stack string) {
	t.Helper()
	is := is.NewRelaxed(t)
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) {
		t.Fatalf("%v: not a JSON-RPC error", err)
	}
	is.Equal(rpcErr.Code, int64(jsonrpc.CodeInternalError)) // an internal error
	var entry struct{ Msg, Ref, Method, Target, Stack string }
	is.NoErr(json.Unmarshal(log.Bytes(), &entry)) // one log entry
	is.Equal(entry.Msg, "vurb: handler panicked")
	is.Equal(rpcErr.Message, "internal error (ref "+entry.Ref+")") // the client's reference is the log's
	is.Equal(entry.Method, "tools/call")
	is.Equal(entry.Target, "tool boom")
	if stack != "" {
		is.True(strings.Contains(entry.Stack, stack)) // the stack, in the log alone
	}
}
