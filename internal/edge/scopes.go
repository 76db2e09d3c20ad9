package edge

import (
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/vurb-go/vurb/internal/engine"
)

// AppScopes refuses a request for a prompt or a resource (its get or read,
// and the completion of its arguments) from a token without the scopes
// App.RequireScopes asks for.
func AppScopes(rt *engine.Runtime, token *auth.TokenInfo) error {
	if missing := engine.Missing(rt.Scopes, token); missing != nil {
		return &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest,
			Message: fmt.Sprintf(rt.Messages.MissingScopes, strings.Join(missing, " "))}
	}
	return nil
}
