package vurbotel

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/observe"
)

func TestClassify(t *testing.T) {
	errResult := &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "name: required"}}}
	okResult := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}
	wire := &jsonrpc.Error{Code: -32602, Message: "unknown prompt"}
	for _, c := range []struct {
		name    string
		outcome observe.Outcome
		res     mcp.Result
		err     error
		want    ending
	}{
		{"success", observe.OutcomeOK, okResult, nil, ending{}},
		{"not a tool call", "", &mcp.ListToolsResult{}, nil, ending{}},
		{"input required is no failure", observe.OutcomeInputRequired, okResult, nil, ending{}},
		{"validation", observe.OutcomeValidation, errResult, nil, ending{errorType: "validation", description: "name: required"}},
		{"handler", observe.OutcomeHandler, errResult, nil, ending{errorType: "handler", description: "name: required"}},
		{"error result vurb did not classify", "", errResult, nil, ending{errorType: "tool_error", description: "name: required"}},
		{"JSON-RPC error", "", nil, fmt.Errorf("wrapped: %w", wire), ending{errorType: "-32602", statusCode: "-32602", description: "unknown prompt"}},
		{"JSON-RPC error of a classified call", observe.OutcomeBusy, nil, wire, ending{errorType: "busy", statusCode: "-32602", description: "unknown prompt"}},
		{"other error", "", nil, context.Canceled, ending{errorType: "_OTHER", description: "context canceled"}},
		{"other error of a classified call", observe.OutcomeCancelled, nil, errors.New("gone"), ending{errorType: "cancelled", description: "gone"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			is.New(t).Equal(classify(c.outcome, c.res, c.err), c.want)
		})
	}
}

func TestStatusDescriptionIsCutOnARuneBoundary(t *testing.T) {
	is := is.New(t)
	long := strings.Repeat("é", maxStatusDescription) // 2 bytes each
	got := errorText(&mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: long}}})
	is.Equal(got, strings.Repeat("é", maxStatusDescription/2)+"…")
	is.Equal(cut("short", 10), "short")
}
