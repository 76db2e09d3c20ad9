package vurb

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/edge"
	"github.com/vurb-go/vurb/internal/engine"
	"github.com/vurb-go/vurb/schema"
)

// A handler (of a tool, a prompt or a resource) asks the client for input
// with Ask, AskSampling or AskRoots, each under an id of its choosing:
//
//	func deleteProject(ctx context.Context, in DeleteProject) (string, error) {
//		ok, err := vurb.Ask[Confirm](ctx, "confirm", "Delete project "+in.ID+"?")
//		if err != nil {
//			return "", err // ErrInputRequired ends this round; see below
//		}
//		if !ok.Yes {
//			return "kept " + in.ID, nil
//		}
//		...
//	}
//
// How the question travels depends on the client's protocol revision, and
// the handler does not change:
//
//   - Revision 2026-07-28 and later (sessionless): the first time, the
//     answer is not there yet, so Ask records the request and returns an
//     error wrapping ErrInputRequired. The handler returns it (after asking
//     everything else it needs this round, so that one round carries
//     several requests), and vurb answers the request with an
//     input-required result. The client asks its user or model and sends
//     the request again with the answers; vurb runs the handler again, and
//     this time Ask returns the answer. State the handler wants to carry
//     from one round to the next goes in Carry, sealed so the client can
//     neither read it usefully nor forge it (see WithRequestStateKeys).
//   - Handshake-era sessions: Ask sends the request to the client on the
//     session and waits for its answer, in the same run of the handler.
//
// A client that did not declare the capability (elicitation, sampling,
// roots) is never asked: the call returns an error wrapping ErrUnsupported.
var (
	// ErrInputRequired is wrapped by the error an Ask returns while the
	// answer is not there yet. A handler returns such an error as it is.
	ErrInputRequired = engine.ErrInputRequired
	// ErrDeclined is wrapped by the error Ask returns when the user
	// declined or cancelled the elicitation.
	ErrDeclined = errors.New("vurb: the user declined to answer")
	// ErrUnsupported is wrapped by the error an Ask (or RequireCapability)
	// returns when the client did not declare the capability the request
	// needs. Returned by a handler, such an error answers the request with
	// the protocol error the spec requires (-32021, naming the capability),
	// so a handler that cannot do without the input just returns it.
	ErrUnsupported = engine.ErrUnsupported
	// ErrNoInput is returned by an Ask outside a request vurb serves.
	ErrNoInput = errors.New("vurb: no request to ask input for: Ask works in the handler of a tool, prompt or resource")
)

// Ask asks the client's user for a value of T (a struct whose tags describe
// the form, as for tool inputs: flat, of strings, numbers, booleans and
// enums) with message, under id, and returns the answer, decoded and
// validated. See the package's input requests for how a round works.
func Ask[T any](ctx context.Context, id, message string) (T, error) {
	var zero T
	codec := askCodec[T](ctx)
	var requested map[string]any
	if err := json.Unmarshal(codec.Schema(), &requested); err != nil {
		return zero, err
	}
	delete(requested, "additionalProperties")
	delete(requested, "$schema")
	labelForm(requested, codec.Fields())
	res, err := AskElicitation(ctx, id, &mcp.ElicitParams{Message: message, RequestedSchema: requested})
	if err != nil {
		return zero, err
	}
	if res.Action != "accept" {
		return zero, fmt.Errorf("%w (%s %q)", ErrDeclined, res.Action, id)
	}
	data, err := json.Marshal(res.Content)
	if err != nil {
		return zero, err
	}
	var out T
	if err := codec.Decode(data, &out, schema.DecodeOptions{}); err != nil {
		return zero, fmt.Errorf("the answer to %q is not valid: %w", id, err)
	}
	return out, nil
}

// AskElicitation asks the client's user with params as given (see Ask for
// a form built from a struct). A declined answer is returned as it is.
func AskElicitation(ctx context.Context, id string, params *mcp.ElicitParams) (*mcp.ElicitResult, error) {
	return ask(ctx, id, params, engine.Elicitation,
		func(ss *mcp.ServerSession) (*mcp.ElicitResult, error) { return ss.Elicit(ctx, params) })
}

// AskSampling asks the client's model for a completion.
func AskSampling(ctx context.Context, id string, params *mcp.CreateMessageParams) (*mcp.CreateMessageResult, error) {
	res, err := ask(ctx, id, params, engine.Sampling,
		func(ss *mcp.ServerSession) (*mcp.CreateMessageWithToolsResult, error) {
			single, err := ss.CreateMessage(ctx, params)
			if err != nil {
				return nil, err
			}
			return &mcp.CreateMessageWithToolsResult{Content: []mcp.Content{single.Content}, Model: single.Model,
				Role: single.Role, StopReason: single.StopReason, Meta: single.Meta}, nil
		})
	if err != nil {
		return nil, err
	}
	out := &mcp.CreateMessageResult{Model: res.Model, Role: res.Role, StopReason: res.StopReason, Meta: res.Meta}
	if len(res.Content) > 0 {
		out.Content = res.Content[0]
	}
	return out, nil
}

// AskRoots asks the client for its roots (the directories or files it
// shares with the server).
func AskRoots(ctx context.Context, id string) ([]*mcp.Root, error) {
	res, err := ask(ctx, id, &mcp.ListRootsParams{}, engine.Roots,
		func(ss *mcp.ServerSession) (*mcp.ListRootsResult, error) {
			return ss.ListRoots(ctx, &mcp.ListRootsParams{})
		})
	if err != nil {
		return nil, err
	}
	return res.Roots, nil
}

// ask is the one path of every input request: the answer when the client
// sent it, a direct request on a handshake-era session, or a request
// recorded for the next round.
func ask[R mcp.InputResponse](ctx context.Context, id string, req mcp.InputRequest, kind engine.Capability,
	direct func(*mcp.ServerSession) (R, error)) (R, error) {
	var zero R
	r := engine.RoundFrom(ctx)
	if r == nil {
		return zero, ErrNoInput
	}
	if !r.Declares(kind) {
		return zero, &engine.MissingCapabilityError{Capability: kind, For: id}
	}
	if ss := r.Session(); ss != nil {
		return direct(ss)
	}
	if a, ok := r.Answer(id); ok {
		if res, ok := a.(R); ok {
			return res, nil
		}
		// An answer of another kind is no answer: ask again.
	}
	r.Ask(id, req)
	return zero, fmt.Errorf("%w: %s %q", ErrInputRequired, kind, id)
}

// askCodec is the codec of T, built by the app's validator when ctx is
// an app's request (outside one, Ask refuses to ask just after).
func askCodec[T any](ctx context.Context) *schema.Codec {
	if r := engine.RoundFrom(ctx); r != nil && r.Validator() != nil {
		return r.Validator().CodecFor(reflect.TypeFor[T]())
	}
	return schema.CodecFor(reflect.TypeFor[T]())
}

// Capability names a client capability: Elicitation, Sampling or Roots.
type Capability string

// The client capabilities a handler can need.
const (
	Elicitation Capability = "elicitation"
	Sampling    Capability = "sampling"
	Roots       Capability = "roots"
)

// RequireCapability returns an error wrapping ErrUnsupported when the
// client of the request ctx belongs to did not declare c (nil when it did,
// or when nothing says: in-process). A handler that cannot work without it
// returns that error, which answers the request with the spec's -32021.
func RequireCapability(ctx context.Context, c Capability) error {
	r := engine.RoundFrom(ctx)
	if r == nil || r.Declares(engine.Capability(c)) {
		return nil
	}
	return &engine.MissingCapabilityError{Capability: engine.Capability(c)}
}

// Carry keeps v (encoded as JSON) for the next round of the request:
// Carried reads it there. The client holds it in between, sealed: it can
// neither read it usefully nor change it. It must stay small (64 KiB).
func Carry(ctx context.Context, v any) error {
	r := engine.RoundFrom(ctx)
	if r == nil {
		return ErrNoInput
	}
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	r.Keep(data)
	return nil
}

// Carried decodes into v what the previous round kept with Carry, and
// reports whether there was anything.
func Carried(ctx context.Context, v any) (bool, error) {
	r := engine.RoundFrom(ctx)
	if r == nil || len(r.Carried()) == 0 {
		return false, nil
	}
	return true, json.Unmarshal(r.Carried(), v)
}

// labelForm gives a form's fields the labels their schema leaves out for a
// model (Field.Title): a person reads "Due date" better than due_date.
func labelForm(form map[string]any, fields []schema.Field) {
	props, _ := form["properties"].(map[string]any)
	for _, f := range fields {
		if p, ok := props[f.Name].(map[string]any); ok && f.Title != "" {
			p["title"] = f.Title
		}
	}
}

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
	if err := engine.OpenRound(ctx, rt, r, request, &o, raw); err != nil {
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
