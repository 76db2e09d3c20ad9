package engine

import "github.com/modelcontextprotocol/go-sdk/mcp"

// oneText holds a result, its content slice and its text block in one
// allocation instead of three: most results are a single text.
type oneText struct {
	res     mcp.CallToolResult
	content [1]mcp.Content
	text    mcp.TextContent
}

// TextResult returns a result holding one text block, an error result
// (isError) when isError is set.
func TextResult(text string, isError bool) *mcp.CallToolResult {
	r := &oneText{}
	r.text.Text = text
	r.content[0] = &r.text
	r.res.Content = r.content[:]
	r.res.IsError = isError
	return &r.res
}

// ErrorResult is TextResult(message, true).
func ErrorResult(message string) *mcp.CallToolResult { return TextResult(message, true) }
