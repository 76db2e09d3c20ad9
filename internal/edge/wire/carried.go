package wire

import (
	"bytes"
	"encoding/json"
	"net/http"
)

// Carried makes r the call a tools/call of a wrapper tool carries (tool
// search's call_tool): unwrap reads the wrapper's name and arguments and
// returns the carried tool's name and arguments, or false to leave r as it
// is. The body is written again with those as params.name and
// params.arguments, every other member kept, and an Mcp-Name header (which
// must name the wrapper, or r is left to be refused) names the carried
// tool, so that every front and the
// go-sdk behind them read one call: the one that runs. It returns the
// message of r's body after, m itself when nothing changed.
func Carried(r *http.Request, m *Message, wrapper string, unwrap func(json.RawMessage) (string, json.RawMessage, bool)) *Message {
	if m == nil || !m.Whole {
		return m
	}
	if h := r.Header["Mcp-Name"]; len(h) > 0 && (len(h) > 1 || h[0] != wrapper) {
		return m // a routing header that disagrees: refused as the call it names
	}
	e := m.RPC()
	if !e.OK || !e.ParamsOK || string(e.Method) != `"tools/call"` || !isString(e.Name, wrapper) {
		return m
	}
	name, args, ok := unwrap(e.Args)
	if !ok {
		return m // the wrapper's own validation answers it
	}
	var env, params map[string]json.RawMessage
	if json.Unmarshal(m.Body, &env) != nil || json.Unmarshal(env["params"], &params) != nil {
		return m
	}
	params["name"], params["arguments"] = asIs(name), args
	var ok2 bool
	if env["params"], ok2 = marshalAsIs(params); !ok2 {
		return m
	}
	body, ok2 := marshalAsIs(env)
	if !ok2 {
		return m
	}
	out := &Message{Body: body, Whole: true}
	if len(body) > len(m.Body) || !out.RPC().OK {
		// Re-encoding changed what the fronts read: bytes that are not
		// UTF-8 grew to U+FFFD, a key holding U+2028 came out escaped.
		// The call is left as it came, for the go-sdk's middleware.
		return m
	}
	if len(r.Header["Mcp-Name"]) > 0 {
		r.Header.Set("Mcp-Name", name)
	}
	out.replay.Reset(body)
	r.Body, r.ContentLength = &out.replay, int64(len(body))
	return out
}

// marshalAsIs encodes v without escaping what JSON lets be (<, >, & and
// U+2028 in strings): the call carried is no larger than the call that
// carried it, which the body's bound held.
func marshalAsIs(v any) (json.RawMessage, bool) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return nil, false
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), true
}

// asIs is s as a JSON string, unescaped where JSON lets it be.
func asIs(s string) json.RawMessage {
	out, _ := marshalAsIs(s)
	return out
}
