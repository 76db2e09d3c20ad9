package wire

import (
	"bytes"
	"encoding/json"
	"strconv"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The lane reads three small JSON objects per request (the envelope, its
// params, their _meta) and must know every member of each, exactly as
// written: decoding them into maps allocated a map and a slice per member,
// a large part of the lane's time (bench/README.md). members walks an object's top-level
// members in place instead. It reads documents json.Valid accepted, and
// reports keys written with escapes as not understood (ok false), so that
// the go-sdk, not the lane, judges anything unusual.

// members calls f with each member of the object doc, in order; f returns
// false to stop. It returns false when doc is not an object it can walk.
func members(doc []byte, f func(key, value []byte) bool) bool {
	i := skipSpace(doc, 0)
	if i >= len(doc) || doc[i] != '{' {
		return false
	}
	i = skipSpace(doc, i+1)
	if i < len(doc) && doc[i] == '}' {
		return true
	}
	for i < len(doc) {
		if doc[i] != '"' {
			return false
		}
		end := bytes.IndexByte(doc[i+1:], '"')
		if end < 0 {
			return false
		}
		key := doc[i+1 : i+1+end]
		if bytes.IndexByte(key, '\\') >= 0 {
			return false // an escaped key: not the lane's to interpret
		}
		i = skipSpace(doc, i+2+end)
		if i >= len(doc) || doc[i] != ':' {
			return false
		}
		start := skipSpace(doc, i+1)
		stop, ok := skipValue(doc, start)
		if !ok || !f(key, doc[start:stop]) {
			return false
		}
		i = skipSpace(doc, stop)
		if i < len(doc) && doc[i] == ',' {
			i = skipSpace(doc, i+1)
			continue
		}
		return i < len(doc) && doc[i] == '}'
	}
	return false
}

func skipSpace(doc []byte, i int) int {
	for i < len(doc) && (doc[i] == ' ' || doc[i] == '\t' || doc[i] == '\n' || doc[i] == '\r') {
		i++
	}
	return i
}

// skipValue returns the end of the value starting at i in a valid document.
func skipValue(doc []byte, i int) (int, bool) {
	if i >= len(doc) {
		return i, false
	}
	switch doc[i] {
	case '"':
		for j := i + 1; j < len(doc); j++ {
			switch doc[j] {
			case '\\':
				j++
			case '"':
				return j + 1, true
			}
		}
		return len(doc), false
	case '{', '[':
		depth := 0
		for j := i; j < len(doc); j++ {
			switch doc[j] {
			case '"':
				end, ok := skipValue(doc, j)
				if !ok {
					return end, false
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1, true
				}
			}
		}
		return len(doc), false
	default:
		j := i
		for j < len(doc) && !bytes.ContainsRune([]byte(",}] \t\n\r"), rune(doc[j])) {
			j++
		}
		return j, j > i
	}
}

// RequestID reads a JSON-RPC id: a plain string, or an integer read as the
// go-sdk reads numbers (a float64, which it truncates), so big ones round
// alike. Anything else (null, a fraction, an escaped string) is the
// go-sdk's to judge.
func RequestID(raw []byte) (jsonrpc.ID, bool) {
	var v any
	if s, ok := PlainString(raw); ok {
		v = s
	} else if integer(raw) {
		// As encoding/json reads a number into a float64 (strconv, with
		// the same rounding), without its reflection.
		n, err := strconv.ParseFloat(string(raw), 64)
		if err != nil {
			return jsonrpc.ID{}, false
		}
		v = n
	} else {
		return jsonrpc.ID{}, false
	}
	id, err := jsonrpc.MakeID(v)
	return id, err == nil
}

// PlainString returns the content of a JSON string without escapes.
func PlainString(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' || bytes.IndexByte(raw, '\\') >= 0 {
		return "", false
	}
	return string(raw[1 : len(raw)-1]), true
}

// CapsCache keeps the client capabilities the lane decoded, by their raw
// text: clients send the same object with every request. It holds a few
// dozen distinct objects at most, then stops adding.
type CapsCache struct {
	mu sync.RWMutex
	m  map[string]*mcp.ClientCapabilities
}

const maxCachedCaps = 64

func (c *CapsCache) Get(raw []byte) (*mcp.ClientCapabilities, bool) {
	c.mu.RLock()
	caps, ok := c.m[string(raw)]
	c.mu.RUnlock()
	if ok {
		return caps, true
	}
	// The go-sdk's own decoding of the capabilities (its v2 form) is not
	// exported: a round trip through InitializeParams, whose JSON carries
	// the same object, is.
	var ip mcp.InitializeParams
	wrapped := append(append([]byte(`{"capabilities":`), raw...), '}')
	if json.Unmarshal(wrapped, &ip) != nil || ip.Capabilities == nil {
		return nil, false
	}
	c.mu.Lock()
	if c.m == nil {
		c.m = map[string]*mcp.ClientCapabilities{}
	}
	if len(c.m) < maxCachedCaps {
		c.m[string(raw)] = ip.Capabilities
	}
	c.mu.Unlock()
	return ip.Capabilities, true
}

// appendCallResult writes the JSON of a tools/call result the way the
// go-sdk's CallToolResult.MarshalJSON does once its server has set the
// result type (resultType, "" for a handshake-era request): members in the
// order of its wire struct, the input requests last. meta is the result's
// _meta, already encoded, or nil. The go-sdk keeps the result type in an
// unexported field, so the lane writes the result itself rather than ask
// the go-sdk to; the differential test holds the two to the same bytes.
func appendCallResult(buf, meta []byte, res *mcp.CallToolResult, resultType string) ([]byte, error) {
	buf = append(buf, '{')
	if meta != nil {
		buf = append(append(buf, `"_meta":`...), meta...)
		buf = append(buf, ',')
	}
	content := res.Content
	if content == nil && !(resultType != "" && res.InputRequests != nil) {
		content = []mcp.Content{} // an input-required result of 2026-07-28 has none: null
	}
	buf = append(buf, `"content":`...)
	buf, err := appendContent(buf, content)
	if err != nil {
		return nil, err
	}
	var data []byte
	if res.StructuredContent != nil {
		if data, err = json.Marshal(res.StructuredContent); err != nil {
			return nil, err
		}
		buf = append(append(buf, `,"structuredContent":`...), data...)
	}
	if res.IsError {
		buf = append(buf, `,"isError":true`...)
	}
	if res.RequestState != "" {
		if data, err = json.Marshal(res.RequestState); err != nil {
			return nil, err
		}
		buf = append(append(buf, `,"requestState":`...), data...)
	}
	if resultType != "" {
		buf = append(append(append(buf, `,"resultType":"`...), resultType...), '"')
	}
	if res.InputRequests != nil {
		if data, err = json.Marshal(res.InputRequests); err != nil {
			return nil, err
		}
		buf = append(append(buf, `,"inputRequests":`...), data...)
	}
	return append(buf, '}'), nil
}

// appendContent appends content as json.Marshal writes it. Plain text
// blocks (no _meta, no annotations), what nearly every result holds, are
// written here, the text quoted as json.Marshal quotes it (appendJSONString): the go-sdk's
// TextContent.MarshalJSON writes the same members, and encoding/json's
// compaction of a marshaller's output leaves compact, HTML-escaped JSON
// as it is.
func appendContent(buf []byte, content []mcp.Content) ([]byte, error) {
	if content == nil {
		return append(buf, "null"...), nil
	}
	for _, c := range content {
		if t, ok := c.(*mcp.TextContent); !ok || t == nil || t.Meta != nil || t.Annotations != nil {
			data, err := json.Marshal(content)
			return append(buf, data...), err
		}
	}
	buf = append(buf, '[')
	for i, c := range content {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(appendJSONString(append(buf, `{"type":"text","text":`...), c.(*mcp.TextContent).Text), '}')
	}
	return append(buf, ']'), nil
}

// sdkMaxDepth is the nesting the go-sdk's JSON-RPC reader refuses beyond
// (v1.8.0): a message deeper than it is answered 400 over HTTP, before
// any handler, and the lane hands such a message to the go-sdk so that
// every path answers it alike.
const sdkMaxDepth = 1000

// nestsDeeper reports whether the JSON text body nests arrays and objects
// more than depth levels deep. It counts brackets outside strings; body is
// valid JSON (envelope checked it).
func nestsDeeper(body []byte, depth int) bool {
	level, inString := 0, false
	for i := 0; i < len(body); i++ {
		c := body[i]
		switch {
		case inString:
			if c == '\\' {
				i++
			} else if c == '"' {
				inString = false
			}
		case c == '"':
			inString = true
		case c == '[' || c == '{':
			if level++; level > depth {
				return true
			}
		case c == ']' || c == '}':
			level--
		}
	}
	return false
}

// integer reports whether raw is a JSON integer: digits, perhaps a minus.
func integer(raw []byte) bool {
	if len(raw) > 0 && raw[0] == '-' {
		raw = raw[1:]
	}
	for _, c := range raw {
		if c < '0' || c > '9' {
			return false
		}
	}
	return len(raw) > 0
}
