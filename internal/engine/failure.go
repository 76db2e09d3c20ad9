package engine

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Helpers such as vurb.JSON build a result without seeing the call, so
// they cannot log a failure to encode it through the app's logger. They
// return a FailedResult instead, which the engine recognises when a
// handler returns it: the call then answers like any internal error (the
// Internal message with a reference) and the reason goes to the app's
// log.
//
// The result carries its error itself, so that no registry outlives it or
// is shared by the apps of a process: its Content has one element and
// room for a second, and that hidden slot, past the slice's length, holds
// a failed value. Nothing that reads the result sees it (it marshals,
// ranges and compares as the one text block it shows); a copy of the
// result or of its Content, or an append to it, loses it, and the result
// is then answered as the plain tool error it reads as.

// failed is the hidden element of a FailedResult's Content. It embeds a
// text block only to be an mcp.Content; the type is what marks it.
type failed struct {
	*mcp.TextContent
	err error
}

// FailedResult returns an error result holding text, standing for err.
func FailedResult(text string, err error) *mcp.CallToolResult {
	content := make([]mcp.Content, 2)
	content[0] = &mcp.TextContent{Text: text}
	content[1] = &failed{TextContent: &mcp.TextContent{}, err: err}
	return &mcp.CallToolResult{Content: content[:1], IsError: true}
}

// failure returns the error a FailedResult stands for.
func failure(res *mcp.CallToolResult) (error, bool) {
	if len(res.Content) != 1 || cap(res.Content) < 2 {
		return nil, false
	}
	f, ok := res.Content[:2][1].(*failed)
	if !ok || f == nil {
		return nil, false
	}
	return f.err, true
}
