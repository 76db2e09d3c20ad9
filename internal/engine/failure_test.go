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

// TestOnlyAFailedResultIsAFailure: plain error results, and a failed
// result whose Content was appended to, are tool errors as they read.
func TestOnlyAFailedResultIsAFailure(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	_, ok := failure(ErrorResult("no"))
	is.True(!ok)
	_, ok = failure(&mcp.CallToolResult{Content: make([]mcp.Content, 1, 2), IsError: true})
	is.True(!ok)

	res := FailedResult("could not encode", errors.New("x"))
	res.Content = append(res.Content, &mcp.TextContent{Text: "more"})
	_, ok = failure(res)
	is.True(!ok)
	is.Equal(len(res.Content), 2)
}
