package engine

import (
	"context"
	"fmt"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultTruncated is the Truncated message of a runtime that sets none
// (%d: the bytes of text kept, %d: the bytes the result had).
const DefaultTruncated = "output truncated to %d of %d bytes; narrow the request (a filter, fewer fields, a smaller page) to get the rest"

// capOutput wraps h, the action's whole chain, so that a result holding
// more than max bytes of text is cut to max and says so. max <= 0 leaves h
// as it is.
func (ep *Endpoint) capOutput(h Handler, max int) Handler {
	if max <= 0 {
		return h
	}
	return func(ctx context.Context, c *Call) (*mcp.CallToolResult, error) {
		res, err := h(ctx, c)
		if err != nil || res == nil {
			return res, err
		}
		return c.ep.truncate(res, max), nil // the routed endpoint's: its prefix names what the model called
	}
}

// truncate returns res when its text blocks hold max bytes or fewer.
// Otherwise it returns a copy whose text is cut to max bytes (at a
// character boundary; later text blocks dropped, other blocks kept) and
// ends with the Truncated note. Structured content cannot be cut without
// breaking its schema: a result that had it loses it and becomes an error
// result, which a client accepts without it. The handler's own value is
// never changed.
func (ep *Endpoint) truncate(res *mcp.CallToolResult, max int) *mcp.CallToolResult {
	total := 0
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			total += len(t.Text)
		}
	}
	if total <= max {
		return res
	}
	out := *res
	out.Content = make([]mcp.Content, 0, len(res.Content)+1)
	kept, full := 0, false // full: the text after the cut is dropped
	for _, c := range res.Content {
		t, ok := c.(*mcp.TextContent)
		switch {
		case !ok:
			out.Content = append(out.Content, c)
		case full:
		case kept+len(t.Text) <= max:
			kept += len(t.Text)
			out.Content = append(out.Content, c)
		default:
			cut := *t
			cut.Text = cutText(t.Text, max-kept)
			kept += len(cut.Text)
			full = true
			if cut.Text != "" {
				out.Content = append(out.Content, &cut)
			}
		}
	}
	msg := ep.rt.Messages.Truncated
	if msg == "" {
		msg = DefaultTruncated
	}
	out.Content = append(out.Content, &mcp.TextContent{Text: ep.prefix + fmt.Sprintf(msg, kept, total)})
	if out.StructuredContent != nil {
		out.StructuredContent = nil
		out.IsError = true
	}
	return &out
}

// cutText is s cut to at most n bytes, at the start of a character.
func cutText(s string, n int) string {
	if n >= len(s) {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
