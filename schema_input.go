package vurb

import (
	"encoding/json"
	"fmt"

	"github.com/vurb-go/vurb/internal/schema"
)

// InputSchema gives an action whose handler takes json.RawMessage or
// map[string]any its input schema: doc, a JSON Schema written by hand
// (draft 2020-12 unless its $schema names another, with $defs, $ref,
// anyOf, if/then, const...), as a team porting an existing tool catalogue
// has it. vurb publishes doc as given (whitespace removed) and checks every
// call against it with a JSON Schema validator before the handler runs; a
// refused call reads one issue per failed keyword, at the value's path.
// Formats are asserted and references resolve within doc only.
//
// It panics, naming the action, when the handler takes a struct (whose
// schema comes from its tags), when doc is not an object schema with
// "type": "object", or when it does not compile. An action that takes raw
// input and is never given a schema makes Build panic, saying to call
// InputSchema. In a grouped tool, doc must be closed
// ("additionalProperties": false) and refer only to its own $defs.
func (a *ActionDef) InputSchema(doc json.RawMessage) *ActionDef {
	a.mustBeMutable()
	t := a.codec.Type()
	if !rawInput(t) {
		panic(fmt.Sprintf("vurb: action %q: InputSchema is for handlers that take json.RawMessage or map[string]any; "+
			"the schema of %s comes from its struct tags", a.name, t))
	}
	codec, err := schema.CodecFromSchema(doc)
	if err != nil {
		panic(fmt.Sprintf("vurb: action %q: InputSchema: %v", a.name, err))
	}
	a.codec, a.decode = codec, rawDecoder(codec, t)
	return a
}
