package tasks

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

// panickingRoute is a route whose call panics outside any handler, where
// the engine contains nothing.
type panickingRoute struct{}

func (panickingRoute) Wire() *mcp.Tool               { return &mcp.Tool{Name: "boom"} }
func (panickingRoute) Endpoints() []*engine.Endpoint { return nil }
func (panickingRoute) Call(context.Context, json.RawMessage, *engine.Origin) (*mcp.CallToolResult, error) {
	panic("boom")
}

// TestTaskAnswersAPanicAsEveryPath holds a task's goroutine to the edge's
// one scheme (fault.Panicked): the runtime's message with a reference
// from its sequence, and one log entry that carries the same reference.
func TestTaskAnswersAPanicAsEveryPath(t *testing.T) {
	is := is.New(t)
	var log bytes.Buffer
	rt := &engine.Runtime{Logger: slog.New(slog.NewJSONHandler(&log, nil)),
		Messages: engine.Messages{Internal: "internal error (ref %s)"}}
	e := &execution{s: &taskServer{rt: rt}, route: taskRoute{route: panickingRoute{}}, ctx: context.Background()}
	_, err := e.run(nil, &engine.Origin{})
	var rpcErr *jsonrpc.Error
	is.True(errors.As(err, &rpcErr)) // an internal error
	is.Equal(rpcErr.Code, int64(jsonrpc.CodeInternalError))
	var entry struct{ Msg, Ref, Method, Target, Stack string }
	is.NoErr(json.Unmarshal(log.Bytes(), &entry)) // one log entry
	is.Equal(entry.Msg, "vurb: handler panicked")
	is.Equal(rpcErr.Message, "internal error (ref "+entry.Ref+")") // the client's reference is the log's
	is.Equal(entry.Ref, engine.FormatID(1))                        // the runtime's sequence, as every path's
	is.Equal(entry.Method, "tools/call")
	is.Equal(entry.Target, "tool boom")
	is.True(strings.Contains(entry.Stack, "panickingRoute")) // the stack, in the log alone
}
