package edge

import (
	"bytes"
	"io"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A message is the body of one POST, read once, within the bound, before
// any front sees it, and its JSON-RPC envelope parsed once, the first time
// a front asks (rpc). The scope challenger, the tasks front and the fast
// lane all read the same message, so they cannot disagree on what a
// request says; the go-sdk reads the body as it came.
type message struct {
	body []byte
	// whole reports that the body was read to its end, within the bound
	// and without error: only then may a front answer the request.
	whole bool

	parsed bool
	env    rpc

	// replay is r's body once the message is read whole: it lives here,
	// in the message's one allocation, since most requests never read it.
	replay replayBody
}

// readMessage reads r's body (a POST's) up to maxBody bytes, and gives r a
// body that reads the same bytes again, followed by whatever was left
// unread (the handler behind judges an oversized or broken body as it
// came). It returns nil for a request without a body to read.
func readMessage(r *http.Request, maxBody int64) *message {
	if r.Method != http.MethodPost || r.Body == nil || r.Body == http.NoBody {
		return nil
	}
	body, err := readBounded(r.Body, r.ContentLength, maxBody)
	m := &message{body: body}
	m.whole = err == nil && int64(len(body)) <= maxBody
	if m.whole {
		r.Body.Close()
		m.replay.Reset(body)
		r.Body = &m.replay
	} else {
		r.Body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(bytes.NewReader(body), r.Body), r.Body}
	}
	return m
}

// readBounded reads body to its end, or to one byte past max, whichever
// comes first. A declared length within the bound sizes the buffer
// exactly, one byte more to see the end: one allocation, most often.
func readBounded(body io.Reader, declared, max int64) ([]byte, error) {
	size := int64(512)
	if declared > 0 && declared <= max {
		size = declared + 1
	}
	buf := make([]byte, 0, size)
	for int64(len(buf)) <= max {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		room := buf[len(buf):cap(buf)]
		if over := max + 1 - int64(len(buf)); int64(len(room)) > over {
			room = room[:over]
		}
		n, err := body.Read(room)
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
	return buf, nil
}

// replayBody reads a message's body again, for the handler behind the
// front; closing it does nothing.
type replayBody struct{ bytes.Reader }

// Close implements io.Closer.
func (*replayBody) Close() error { return nil }

// rpc returns the parsed envelope of m, parsing it on first use.
func (m *message) rpc() *rpc {
	if !m.parsed {
		m.parsed = true
		if m.whole {
			m.env.parse(m.body)
		}
	}
	return &m.env
}

// rpc is one JSON-RPC request as the fronts read it: the raw values of the
// members they know, in place in the body. The walk (members) reports keys
// written with escapes as not understood, so a front hands such a request
// to the go-sdk, or reads it with encoding/json (the challenger), rather
// than guess. Of a duplicated member the last is kept, as encoding/json
// does.
type rpc struct {
	// valid: the body is JSON (json.Valid); ok: one object, walked.
	valid, ok bool
	// others: the envelope has a member besides jsonrpc, id, method and
	// params.
	others                      bool
	version, id, method, params []byte

	// paramsOK: params is absent, or an object walked.
	paramsOK bool
	// paramsOthers: params has a member besides those below.
	paramsOthers                           bool
	name, uri, args, meta, answers, taskID []byte
	state                                  []byte // requestState

	// metaOK: _meta is absent, or an object walked.
	metaOK bool
	// metaOthers: _meta has a member besides those below.
	metaOthers              bool
	revision, caps, info    []byte
	traceparent, tracestate []byte
}

// parse walks body once: the envelope, its params, their _meta.
func (e *rpc) parse(body []byte) {
	if e.valid = validJSON(body); !e.valid {
		return
	}
	e.ok = members(body, func(key, value []byte) bool {
		switch string(key) {
		case "jsonrpc":
			e.version = value
		case "id":
			e.id = value
		case "method":
			e.method = value
		case "params":
			e.params = value
		default:
			e.others = true
		}
		return true
	})
	if !e.ok {
		return
	}
	e.paramsOK = e.params == nil || members(e.params, func(key, value []byte) bool {
		switch string(key) {
		case "_meta":
			e.meta = value
		case "name":
			e.name = value
		case "uri":
			e.uri = value
		case "arguments":
			e.args = value
		case "inputResponses":
			e.answers = value
		case "requestState":
			e.state = value
		case "taskId":
			e.taskID = value
		default:
			e.paramsOthers = true
		}
		return true
	})
	if !e.paramsOK {
		return
	}
	e.metaOK = e.meta == nil || members(e.meta, func(key, value []byte) bool {
		switch string(key) {
		case mcp.MetaKeyProtocolVersion:
			e.revision = value
		case mcp.MetaKeyClientCapabilities:
			e.caps = value
		case mcp.MetaKeyClientInfo:
			e.info = value
		case "traceparent":
			e.traceparent = value
		case "tracestate":
			e.tracestate = value
		default:
			e.metaOthers = true
		}
		return true
	})
}

// strict reports whether the envelope is a JSON-RPC 2.0 request with an id
// and no member but jsonrpc, id, method and params: what the lane and the
// tasks front answer (anything else is the go-sdk's to judge).
func (e *rpc) strict() bool {
	return e.ok && !e.others && string(e.version) == `"2.0"` && len(e.id) > 0
}
