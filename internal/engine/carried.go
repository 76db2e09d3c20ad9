package engine

import (
	"bytes"
	"encoding/json"
)

// Resolve returns the tool a tools/call of name with args runs, and its
// arguments: under tool search, a call of call_tool is the call it
// carries. It reports false, and name and args as they are, for any
// other call, and for a call_tool whose arguments are not a tool's name
// and an object of arguments (call_tool's own validation answers it).
// It copies nothing: the inner arguments are a part of args.
func (p *Plan) Resolve(name string, args json.RawMessage) (string, json.RawMessage, bool) {
	if p.finder == nil || name != CallToolName {
		return name, args, false
	}
	inner, innerArgs, ok := Unwrap(args)
	if !ok {
		return name, args, false
	}
	return inner, innerArgs, true
}

// Unwrap reads call_tool's arguments: {"name": string, "arguments"?:
// object}, members named exactly so (as the go-sdk reads a request), and
// nothing else. A name that is call_tool itself is refused: a call
// carries one call.
func Unwrap(args json.RawMessage) (name string, inner json.RawMessage, ok bool) {
	var members map[string]json.RawMessage
	if json.Unmarshal(args, &members) != nil || members == nil {
		return "", nil, false
	}
	for k := range members {
		if k != "name" && k != "arguments" {
			return "", nil, false
		}
	}
	if json.Unmarshal(members["name"], &name) != nil || name == "" || name == CallToolName {
		return "", nil, false
	}
	inner = members["arguments"]
	switch t := bytes.TrimSpace(inner); {
	case len(t) == 0:
		inner = json.RawMessage("{}")
	case t[0] != '{':
		return "", nil, false
	}
	return name, inner, true
}
