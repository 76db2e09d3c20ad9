package engine

import (
	"errors"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Helpers such as vurb.JSON build a result without seeing the call, so
// they cannot log a failure to encode it through the app's logger. They
// return a FailedResult instead, which the engine recognises when a
// handler returns it: the call then answers like any internal error (the
// Internal message with a reference) and the reason goes to the app's
// log.
//
// The result carries its error itself, where the go-sdk keeps a tool
// result's error for the server's middleware (CallToolResult.SetError,
// GetError: never marshalled), wrapped in a type of the engine's own, so
// that no registry outlives a result or is shared by the apps of a process,
// and an error a handler records with SetError is not taken for one.

// encodingFailure marks the error of a FailedResult.
type encodingFailure struct{ err error }

func (f *encodingFailure) Error() string { return f.err.Error() }
func (f *encodingFailure) Unwrap() error { return f.err }

// FailedResult returns an error result holding text, standing for err.
func FailedResult(text string, err error) *mcp.CallToolResult {
	res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}
	res.SetError(&encodingFailure{err: err})
	return res
}

// failure returns the error a FailedResult stands for.
func failure(res *mcp.CallToolResult) (error, bool) {
	var f *encodingFailure
	if !res.IsError || !errors.As(res.GetError(), &f) {
		return nil, false
	}
	return f.err, true
}
