package engine

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
)

// withHeaders returns schema with each property named in headers
// annotated "x-mcp-header": the HTTP header (Mcp-Param-<name>) a client of
// revision 2026-07-28 mirrors the argument into, and the go-sdk's HTTP
// handler checks against the body. It runs at Compile only.
func withHeaders(schema json.RawMessage, headers map[string]string) json.RawMessage {
	if len(headers) == 0 {
		return schema
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(schema, &doc); err != nil {
		panic(fmt.Sprintf("vurb: a schema to annotate with x-mcp-header does not decode: %v", err))
	}
	var props map[string]map[string]any
	if err := json.Unmarshal(doc["properties"], &props); err != nil {
		panic(fmt.Sprintf("vurb: a schema to annotate with x-mcp-header has no properties: %v", err))
	}
	for _, field := range slices.Sorted(maps.Keys(headers)) {
		p, ok := props[field]
		if !ok {
			panic(fmt.Sprintf("vurb: header %q mirrors field %q, which the input does not have", headers[field], field))
		}
		p["x-mcp-header"] = headers[field]
	}
	data, err := json.Marshal(props)
	if err != nil {
		panic(err)
	}
	doc["properties"] = data
	// encoding/json sorts the keys of a map: the document's own order is
	// not kept, which JSON Schema does not care about.
	out, err := json.Marshal(doc)
	if err != nil {
		panic(err)
	}
	return out
}
