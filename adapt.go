package vurb

import (
	"context"
	"fmt"
	"reflect"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/engine"
	"github.com/vurb-go/vurb/schema"
)

// decoderFor compiles, once per action, the codec and decoder of In with
// the app's validator. In must be a struct or a pointer to one; the schema
// package reflects it here, so a call never does. An In of json.RawMessage
// or map[string]any takes a hand-written schema instead: until
// ActionDef.InputSchema supplies it, the codec is a placeholder that makes
// Build panic, saying so.
func decoderFor[In any](app *App, action string) (*schema.Codec, engine.Decoder) {
	t := reflect.TypeFor[In]()
	if rawInput(t) {
		codec := schema.Pending(t, fmt.Sprintf("vurb: action %q takes %s, which has no schema of its own: "+
			"declare it with .InputSchema(jsonschema.MustCodec(doc))", action, rawInputName(t)))
		return codec, rawDecoder(codec, t)
	}
	if t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Struct {
		elem := t.Elem()
		codec := app.codecFor(elem)
		return codec, func(data []byte, opts schema.DecodeOptions) (any, error) {
			p := reflect.New(elem).Interface()
			if err := codec.Decode(data, p, opts); err != nil {
				return nil, err
			}
			return p, nil
		}
	}
	if t.Kind() != reflect.Struct {
		panic(fmt.Sprintf("vurb: action %q: the handler's input must be a struct or a pointer to one (got %s); "+
			"a handler without input takes struct{}", action, t))
	}
	codec := app.codecFor(t)
	return codec, func(data []byte, opts schema.DecodeOptions) (any, error) {
		in := new(In)
		if err := codec.Decode(data, in, opts); err != nil {
			return nil, err
		}
		return in, nil
	}
}

// adapt turns a typed handler into the untyped Handler every middleware
// chain ends in. The type switch on In and the choice of result encoder are
// made here, once.
func adapt[In, Out any](h func(context.Context, In) (Out, error), format ResultFormat) Handler {
	encode := resultEncoder[Out](format)
	if reflect.TypeFor[In]().Kind() == reflect.Pointer {
		return func(ctx context.Context, c *Call) (*mcp.CallToolResult, error) {
			out, err := h(ctx, c.Input.(In))
			if err != nil {
				return nil, err
			}
			return encode(out)
		}
	}
	return func(ctx context.Context, c *Call) (*mcp.CallToolResult, error) {
		out, err := h(ctx, *c.Input.(*In))
		if err != nil {
			return nil, err
		}
		return encode(out)
	}
}
