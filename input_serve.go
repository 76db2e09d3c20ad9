package vurb

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/edge"
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
	if err := edge.AppScopes(rt, o.Token); err != nil {
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

// inputRequired reports whether err ends the round, and if so the requests
// and the sealed state of the result that says so.
func inputRequired(rt *engine.Runtime, r *engine.Round, err error) (mcp.InputRequestMap, string, bool, error) {
	if !errors.Is(err, ErrInputRequired) {
		return nil, "", false, nil
	}
	asked, state, sealErr := engine.SealRound(rt, r)
	return asked, state, true, sealErr
}
