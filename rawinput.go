package vurb

import (
	"encoding/json"
	"reflect"

	"github.com/vurb-go/vurb/internal/engine"
	"github.com/vurb-go/vurb/internal/schema"
)

// Hand-written input schemas: an action whose handler takes
// json.RawMessage or map[string]any has no struct to reflect, so its author
// supplies the JSON Schema (InputSchema). vurb publishes it as given and
// checks every call against it before the handler runs.

var (
	typeRawMessage = reflect.TypeFor[json.RawMessage]()
	typeMapAny     = reflect.TypeFor[map[string]any]()
)

// rawInput reports whether t is an input type that takes a hand-written
// schema.
func rawInput(t reflect.Type) bool { return t == typeRawMessage || t == typeMapAny }

// rawInputName names a raw input type as its user wrote it: from Go 1.27
// json.RawMessage is an alias whose reflected name is jsontext.Value.
func rawInputName(t reflect.Type) string {
	if t == typeRawMessage {
		return "json.RawMessage"
	}
	return t.String()
}

// rawDecoder decodes a call's arguments with codec into a new value of t,
// json.RawMessage or map[string]any, as the adapted handler expects it.
func rawDecoder(codec *schema.Codec, t reflect.Type) engine.Decoder {
	if t == typeMapAny {
		return func(data []byte, opts schema.DecodeOptions, skip string) (any, error) {
			m := new(map[string]any)
			if err := schema.DecodeSkipping(codec, data, m, opts, skip); err != nil {
				return nil, err
			}
			return m, nil
		}
	}
	return func(data []byte, opts schema.DecodeOptions, skip string) (any, error) {
		raw := new(json.RawMessage)
		if err := schema.DecodeSkipping(codec, data, raw, opts, skip); err != nil {
			return nil, err
		}
		return raw, nil
	}
}
