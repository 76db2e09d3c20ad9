package engine

import (
	"runtime"
	"sync"
	"weak"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Helpers such as vurb.JSON build a result without seeing the call, so
// they cannot log a failure to encode it through the app's logger. They
// return a FailedResult instead, which the engine recognises when a
// handler returns it: the call then answers like any internal error (the
// Internal message with a reference) and the reason goes to the app's
// log. The record is weak, so a failed result that never reaches a call
// (built in a test, say) costs nothing once collected.
var failures sync.Map // weak.Pointer[mcp.CallToolResult] -> error

// FailedResult returns an error result holding text, standing for err.
func FailedResult(text string, err error) *mcp.CallToolResult {
	res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}, IsError: true}
	key := weak.Make(res)
	failures.Store(key, err)
	runtime.AddCleanup(res, func(k weak.Pointer[mcp.CallToolResult]) { failures.Delete(k) }, key)
	return res
}

// failure returns the error a FailedResult stands for, once.
func failure(res *mcp.CallToolResult) (error, bool) {
	v, ok := failures.LoadAndDelete(weak.Make(res))
	if !ok {
		return nil, false
	}
	return v.(error), true
}
