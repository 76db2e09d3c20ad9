package vurb

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

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
	if missing := engine.Missing(rt.Scopes, o.Token); missing != nil {
		return nil, nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest,
			Message: fmt.Sprintf(rt.Messages.MissingScopes, strings.Join(missing, " "))}
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

// inputRequired reports whether err ends the round, and if so the requests
// and the sealed state of the result that says so.
func inputRequired(rt *engine.Runtime, r *engine.Round, err error) (mcp.InputRequestMap, string, bool, error) {
	if !errors.Is(err, ErrInputRequired) {
		return nil, "", false, nil
	}
	asked, state, sealErr := engine.SealRound(rt, r)
	return asked, state, true, sealErr
}
