package lane

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

// panicRoute is a route whose call panics outside any handler, where the
// engine contains nothing.
type panicRoute struct{}

func (panicRoute) Wire() *mcp.Tool               { return &mcp.Tool{Name: "boom"} }
func (panicRoute) Endpoints() []*engine.Endpoint { return nil }
func (panicRoute) Call(context.Context, json.RawMessage, *engine.Origin) (*mcp.CallToolResult, error) {
	panic("boom")
}

// A call that panics on the fast lane is answered as on every other path
// the edge runs one (the edge's TestEveryPathAnswersAPanicAlike): the
// runtime's message with a reference from its sequence, and one log
// entry that carries the same reference and the stack.
func TestLaneAnswersAPanicAsEveryPathDoes(t *testing.T) {
	is := is.New(t)
	var log bytes.Buffer
	rt := &engine.Runtime{Logger: slog.New(slog.NewJSONHandler(&log, nil)),
		Messages: engine.Messages{Internal: "internal error (ref %s)"}}
	_, err := (&Lane{rt: rt}).contained(context.Background(), panicRoute{}, laneRequest{name: "boom"}, &engine.Origin{})
	var rpcErr *jsonrpc.Error
	is.True(errors.As(err, &rpcErr)) // an internal error
	is.Equal(rpcErr.Code, int64(jsonrpc.CodeInternalError))
	var entry struct{ Msg, Ref, Method, Target, Stack string }
	is.NoErr(json.Unmarshal(log.Bytes(), &entry)) // one log entry
	is.Equal(entry.Msg, "vurb: handler panicked")
	is.Equal(rpcErr.Message, "internal error (ref "+entry.Ref+")") // the client's reference is the log's
	is.Equal(entry.Method, "tools/call")
	is.Equal(entry.Target, "tool boom")
	is.True(strings.Contains(entry.Stack, "panicRoute")) // the stack, in the log alone
}
