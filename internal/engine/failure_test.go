package engine

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestFailedResultCarriesItsError: the error travels in the result, is
// read back by the engine, and shows nowhere a reader of the result looks.
func TestFailedResultCarriesItsError(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	cause := errors.New("chan int")
	res := FailedResult("could not encode", cause)

	err, ok := failure(res)
	is.True(ok)
	is.Equal(err, cause)
	err, ok = failure(res) // as often as it is returned
	is.True(ok)
	is.Equal(err, cause)

	is.Equal(len(res.Content), 1)
	is.Equal(res.Content[0].(*mcp.TextContent).Text, "could not encode")
	is.Equal(res.StructuredContent, nil)
	is.Equal(res.Meta, mcp.Meta(nil))
	got, err := json.Marshal(res)
	is.NoErr(err)
	want, err := json.Marshal(ErrorResult("could not encode"))
	is.NoErr(err)
	is.Equal(string(got), string(want))
}

// TestOnlyAFailedResultIsAFailure: plain error results, and those whose
// handler recorded its own error with SetError, are tool errors as they
// read.
func TestOnlyAFailedResultIsAFailure(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	_, ok := failure(ErrorResult("no"))
	is.True(!ok)
	own := &mcp.CallToolResult{}
	own.SetError(errors.New("the handler's own"))
	_, ok = failure(own)
	is.True(!ok)
	is.Equal(own.Content[0].(*mcp.TextContent).Text, "the handler's own")
}
