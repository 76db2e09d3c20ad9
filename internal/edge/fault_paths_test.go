package edge

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"testing"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/edge/fault"
	"github.com/vurb-go/vurb/internal/engine"
)

// TestEveryPathAnswersAPanicAlike runs a panicking call on each place the
// edge runs one (the go-sdk's server; the fast lane is held to the same
// in lane/fault_test.go, a task's goroutine in tasks/fault_test.go)
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
	}
	for _, run := range paths {
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
	}
}
