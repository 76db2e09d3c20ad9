package edge

import (
	"context"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/engine"
)

// complete answers completion/complete from the completers of prompts and
// resource templates. An argument without a completer completes to nothing.
// A caller without the app's scopes (RequireScopes) is refused, as its
// prompts/get and resources/read are: the values a completer offers are
// the prompt's or the resource's data.
func (a *Site) complete(ctx context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	var token *auth.TokenInfo
	if req.Extra != nil {
		token = req.Extra.TokenInfo
	}
	if err := AppScopes(a.Plan.Runtime(), token); err != nil {
		return nil, err
	}
	ref, arg := req.Params.Ref, req.Params.Argument
	var others map[string]string
	if req.Params.Context != nil {
		others = req.Params.Context.Arguments
	}
	var completers map[string]Completer
	found := false
	switch ref.Type {
	case "ref/prompt":
		for _, p := range a.Prompts {
			if p.Name == ref.Name {
				completers, found = p.Completers, true
			}
		}
	case "ref/resource":
		for _, r := range a.Resources {
			if r.URI == ref.URI {
				completers, found = r.Completers, true
			}
		}
	}
	if !found {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "completion: unknown " + strings.TrimPrefix(ref.Type, "ref/") + " " + engine.Truncate(ref.Name+ref.URI, MaxEcho)}
	}
	values := []string{}
	if c := completers[arg.Name]; c != nil {
		got, err := c(ctx, arg.Value, others)
		if err != nil {
			return nil, err
		}
		values = append(values, got...)
	}
	const maxValues = 100 // the MCP limit per response
	total := len(values)
	if total > maxValues {
		values = values[:maxValues]
	}
	return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: values, Total: total, HasMore: total > maxValues}}, nil
}
