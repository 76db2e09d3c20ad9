package fault

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
	"github.com/vurb-go/vurb/internal/engine"
)

// TestOneReferenceScheme holds a panic and a handler's error to one
// scheme: the runtime's message, a reference from its sequence, the same
// reference in the one log entry; a protocol error passes as it is.
func TestOneReferenceScheme(t *testing.T) {
	is := is.New(t)
	var log bytes.Buffer
	rt := &engine.Runtime{Logger: slog.New(slog.NewJSONHandler(&log, nil)),
		Messages: engine.Messages{Internal: "internal error (ref %s)"}}
	entry := func() (e struct{ Msg, Ref, Target, Err string }) {
		is.NoErr(json.Unmarshal(log.Bytes(), &e))
		log.Reset()
		return e
	}

	boom := func(context.Context, string, mcp.Request) (mcp.Result, error) { panic("boom") }
	_, err := Contain(rt)(boom)(context.Background(), "prompts/get", &mcp.GetPromptRequest{Params: &mcp.GetPromptParams{Name: "greet"}})
	var rpcErr *jsonrpc.Error
	is.True(errors.As(err, &rpcErr))
	e := entry()
	is.Equal(e.Msg, "vurb: handler panicked")
	is.Equal(e.Target, "prompt greet")
	is.Equal(rpcErr.Message, "internal error (ref "+e.Ref+")")
	is.Equal(e.Ref, engine.FormatID(1)) // the runtime's sequence

	err = HandlerError(rt, "resource file:///x", errors.New("dial tcp db:5432: refused"))
	is.True(errors.As(err, &rpcErr))
	e = entry()
	is.Equal(rpcErr.Message, "internal error (ref "+e.Ref+")") // the text stays in the log
	is.Equal(e.Err, "dial tcp db:5432: refused")
	is.Equal(e.Ref, engine.FormatID(2))

	notFound := mcp.ResourceNotFoundError("file:///x")
	is.Equal(HandlerError(rt, "resource file:///x", notFound), notFound) // a protocol error, as it is
}
