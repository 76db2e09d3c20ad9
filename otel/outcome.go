package vurbotel

import (
	"errors"
	"strconv"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/observe"
)

// toolError is error.type for a tool result with isError set when vurb
// did not say why (a tool vurb did not compile): the conventions' value.
const toolError = "tool_error"

// otherError is error.type for a Go error that is not a JSON-RPC error:
// the conventions' fallback.
const otherError = "_OTHER"

// maxStatusDescription bounds the span status description taken from an
// error's message or an error result's text: enough for the message a
// model reads, not a dump, nor the 100 KB tool name that the go-sdk's
// "unknown tool %q" echoes.
const maxStatusDescription = 256

// ending is how a request ended, in the conventions' terms.
type ending struct {
	errorType   string // error.type; empty when the request succeeded
	statusCode  string // rpc.response.status_code: the JSON-RPC error code
	description string // the span status description
}

// classify says how a request ended. outcome is vurb's account of a tool
// call (empty for other methods): it refines the conventions' "tool_error"
// into the class an operator alerts on — validation (the model sent bad
// arguments), handler, panic, timeout, cancelled, busy, denied (a missing
// scope), limited (a rate or concurrency limit) — so that a dashboard
// grouping by error.type tells a bug from a misbehaving client. A request
// that asked the client for input (input_required) did not fail.
func classify(outcome observe.Outcome, res mcp.Result, err error) ending {
	if err != nil {
		var wire *jsonrpc.Error
		if errors.As(err, &wire) {
			code := strconv.FormatInt(wire.Code, 10)
			e := ending{errorType: code, statusCode: code, description: cut(wire.Message, maxStatusDescription)}
			if failed(outcome) {
				e.errorType = string(outcome)
			}
			return e
		}
		e := ending{errorType: otherError, description: cut(err.Error(), maxStatusDescription)}
		if failed(outcome) {
			e.errorType = string(outcome)
		}
		return e
	}
	if failed(outcome) {
		return ending{errorType: string(outcome), description: errorText(res)}
	}
	if r, ok := res.(*mcp.CallToolResult); ok && r != nil && r.IsError && outcome == "" {
		return ending{errorType: toolError, description: errorText(res)}
	}
	return ending{}
}

// failed reports whether outcome is a failure.
func failed(o observe.Outcome) bool {
	return o != "" && o != observe.OutcomeOK && o != observe.OutcomeInputRequired
}

// errorText is the first text of an error result, cut to
// maxStatusDescription bytes.
func errorText(res mcp.Result) string {
	r, ok := res.(*mcp.CallToolResult)
	if !ok || r == nil {
		return ""
	}
	for _, c := range r.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			return cut(t.Text, maxStatusDescription)
		}
	}
	return ""
}

// cut returns s cut to n bytes on a rune boundary, an ellipsis marking
// the cut.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
