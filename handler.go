package vurb

import (
	"context"
	"fmt"
	"reflect"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/schema"
)

// decodeFunc decodes and validates one call's arguments into a fresh input
// value and returns a pointer to it, ready for Call.Input.
type decodeFunc func(data []byte, opts schema.DecodeOptions) (any, error)

// decoderFor compiles, once per action, the decoder of In. In must be a
// struct or a pointer to one; the schema package reflects it here, so a
// call never does.
func decoderFor[In any](action string) (reflect.Type, decodeFunc) {
	t := reflect.TypeFor[In]()
	if t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Struct {
		elem := t.Elem()
		codec := schema.CodecFor(elem)
		return elem, func(data []byte, opts schema.DecodeOptions) (any, error) {
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
	codec := schema.CodecFor(t)
	return t, func(data []byte, opts schema.DecodeOptions) (any, error) {
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
