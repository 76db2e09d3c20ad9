package vurb

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/engine"
)

// Prompts and resources run outside the engine's tool pipeline, so their
// rounds (see Ask) are opened and sealed here; tool calls do the same in
// the engine.

// roundFor checks the app's scopes for a prompts/get or resources/read
// request from o, opens its round (state bound to the request, the caller
// and args, see engine.Binding) and returns the context its handler runs
// in, which carries the caller.
func roundFor(ctx context.Context, rt *engine.Runtime, request string, o engine.Origin, args any) (context.Context, *engine.Round, error) {
	r := new(engine.Round)
	if err := appScopes(rt, o.Token); err != nil {
		return nil, nil, err
	}
	ctx = context.WithValue(ctx, callerKey{}, callerOf(&o))
	raw, err := json.Marshal(args)
	if err != nil {
		return nil, nil, err
	}
	if err := engine.OpenRound(rt, r, request, &o, raw); err != nil {
		return nil, nil, err
	}
	return engine.WithRound(ctx, r), r, nil
}

// appScopes refuses a request for a prompt or a resource (its get or read,
// and the completion of its arguments) from a token without the scopes
// App.RequireScopes asks for.
func appScopes(rt *engine.Runtime, token *auth.TokenInfo) error {
	if missing := engine.Missing(rt.Scopes, token); missing != nil {
		return &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest,
			Message: fmt.Sprintf(rt.Messages.MissingScopes, strings.Join(missing, " "))}
	}
	return nil
}

// inputRequired reports whether err ends the round, and if so the requests
// and the sealed state of the result that says so.
func inputRequired(rt *engine.Runtime, r *engine.Round, err error) (mcp.InputRequestMap, string, bool, error) {
	if !errors.Is(err, ErrInputRequired) {
		return nil, "", false, nil
	}
	asked, state, sealErr := engine.SealRound(rt, r)
	return asked, state, true, sealErr
}
