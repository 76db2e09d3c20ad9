package edge

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
	"github.com/vurb-go/vurb/internal/edge/fault"
	"github.com/vurb-go/vurb/internal/engine"
)

// panicRoute is a route whose call panics outside any handler, where the
// engine contains nothing.
type panicRoute struct{}

func (panicRoute) Wire() *mcp.Tool               { return &mcp.Tool{Name: "boom"} }
func (panicRoute) Endpoints() []*engine.Endpoint { return nil }
func (panicRoute) Call(context.Context, json.RawMessage, *engine.Origin) (*mcp.CallToolResult, error) {
	panic("boom")
}

// TestEveryPathAnswersAPanicAlike runs a panicking call on each place the
// edge runs one (the go-sdk's server, the fast lane; a task's goroutine
// is held to the same in tasks_fault_test.go)
// and holds each to one scheme: the runtime's message with a reference
// from its sequence, and one log entry that carries the same reference.
func TestEveryPathAnswersAPanicAlike(t *testing.T) {
	is := is.New(t)
	var log bytes.Buffer
	rt := &engine.Runtime{Logger: slog.New(slog.NewJSONHandler(&log, nil)),
		Messages: engine.Messages{Internal: "internal error (ref %s)"}}
	ctx := context.Background()
	paths := map[string]func() error{
		"server": func() error {
			boom := func(context.Context, string, mcp.Request) (mcp.Result, error) { panic("boom") }
			_, err := fault.Contain(rt)(boom)(ctx, "tools/call", &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: "boom"}})
			return err
		},
		"lane": func() error {
			_, err := (&lane{rt: rt}).contained(ctx, panicRoute{}, laneRequest{name: "boom"}, &engine.Origin{})
			return err
		},
	}
	for name, run := range paths {
		log.Reset()
		err := run()
		var rpcErr *jsonrpc.Error
		is.True(errors.As(err, &rpcErr)) // an internal error, on every path
		is.Equal(rpcErr.Code, int64(jsonrpc.CodeInternalError))
		var entry struct{ Msg, Ref, Method, Target, Stack string }
		is.NoErr(json.Unmarshal(log.Bytes(), &entry)) // one log entry
		is.Equal(entry.Msg, "vurb: handler panicked")
		is.Equal(rpcErr.Message, "internal error (ref "+entry.Ref+")") // the client's reference is the log's
		is.Equal(entry.Method, "tools/call")
		is.Equal(entry.Target, "tool boom")
		is.True(strings.Contains(entry.Stack, "panicRoute") || name == "server") // the stack, in the log alone
	}
}
