package engine

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultMissingScopes is the MissingScopes message of a runtime that sets
// none (%s: the scopes missing).
const DefaultMissingScopes = "refused: this action needs the OAuth scope(s) %s, which the caller's token does not grant; " +
	"ask the user to sign in again granting them, or use another action"

// Scopes are the scopes a call of the action needs. Shared: do not modify.
func (ep *Endpoint) Scopes() []string { return ep.scopes }

// Missing returns the scopes of need that token does not grant, nil when
// it grants them all. A nil token grants none.
func Missing(need []string, token *auth.TokenInfo) []string {
	var missing []string
	for _, s := range need {
		if token == nil || !slices.Contains(token.Scopes, s) {
			missing = append(missing, s)
		}
	}
	return missing
}

// Permits reports whether token grants every scope the action needs.
func (ep *Endpoint) Permits(token *auth.TokenInfo) bool {
	return len(ep.scopes) == 0 || Missing(ep.scopes, token) == nil
}

// denied is the answer to a call whose token lacks scopes the action
// needs: a result the model reads, naming them.
func (ep *Endpoint) denied(missing []string) *mcp.CallToolResult {
	return ErrorResult(ep.prefix + fmt.Sprintf(ep.rt.Messages.MissingScopes, strings.Join(missing, " ")))
}

// Target is the endpoint a call of r with args reaches, nil when args name
// none (a grouped tool's discriminator missing, not a string, or no action
// of the route): the route itself answers such a call.
func Target(r Route, args json.RawMessage) *Endpoint {
	if g, ok := r.(*groupedRoute); ok {
		ep, _ := g.pick(args, nil)
		return ep
	}
	if eps := r.Endpoints(); len(eps) == 1 {
		return eps[0]
	}
	return nil
}
