package wire

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
type Message struct {
	Body []byte
	// Whole reports that the body was read to its end, within the bound
	// and without error: only then may a front answer the request.
	Whole bool

	parsed bool
	env    RPC

	// replay is r's body once the message is read whole: it lives here,
	// in the message's one allocation, since most requests never read it.
	replay replayBody
}

// ReadMessage reads r's body (a POST's) up to maxBody bytes, and gives r a
// body that reads the same bytes again, followed by whatever was left
// unread (the handler behind judges an oversized or broken body as it
// came). It returns nil for a request without a body to read.
func ReadMessage(r *http.Request, maxBody int64) *Message {
	if r.Method != http.MethodPost || r.Body == nil || r.Body == http.NoBody {
		return nil
	}
	body, err := readBounded(r.Body, r.ContentLength, maxBody)
	m := &Message{Body: body}
	m.Whole = err == nil && int64(len(body)) <= maxBody
	if m.Whole {
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

// RPC returns the parsed envelope of m, parsing it on first use.
func (m *Message) RPC() *RPC {
	if !m.parsed {
		m.parsed = true
		if m.Whole {
			m.env.Parse(m.Body)
		}
	}
	return &m.env
}

// RPC is one JSON-RPC request as the fronts read it: the raw values of the
// members they know, in place in the body. The walk (members) reports keys
// written with escapes as not understood, so a front hands such a request
// to the go-sdk, or reads it with encoding/json (the challenger), rather
// than guess. Of a duplicated member the last is kept, as encoding/json
// does.
type RPC struct {
	// Valid: the body is JSON (json.Valid); ok: one object, walked.
	Valid, OK bool
	// Others: the envelope has a member besides jsonrpc, id, method and
	// params.
	Others                      bool
	version, ID, Method, Params []byte

	// ParamsOK: params is absent, or an object walked.
	ParamsOK bool
	// ParamsOthers: params has a member besides those below.
	ParamsOthers                           bool
	Name, URI, Args, Meta, Answers, TaskID []byte
	State                                  []byte // requestState

	// metaOK: _meta is absent, or an object walked.
	metaOK bool
	// MetaOthers: _meta has a member besides those below.
	MetaOthers              bool
	Revision, Caps, Info    []byte
	Traceparent, Tracestate []byte
}

// Parse walks body once: the envelope, its params, their _meta.
func (e *RPC) Parse(body []byte) {
	if e.Valid = ValidJSON(body); !e.Valid {
		return
	}
	e.OK = members(body, func(key, value []byte) bool {
		switch string(key) {
		case "jsonrpc":
			e.version = value
		case "id":
			e.ID = value
		case "method":
			e.Method = value
		case "params":
			e.Params = value
		default:
			e.Others = true
		}
		return true
	})
	if !e.OK {
		return
	}
	e.ParamsOK = e.Params == nil || members(e.Params, func(key, value []byte) bool {
		switch string(key) {
		case "_meta":
			e.Meta = value
		case "name":
			e.Name = value
		case "uri":
			e.URI = value
		case "arguments":
			e.Args = value
		case "inputResponses":
			e.Answers = value
		case "requestState":
			e.State = value
		case "taskId":
			e.TaskID = value
		default:
			e.ParamsOthers = true
		}
		return true
	})
	if !e.ParamsOK {
		return
	}
	e.metaOK = e.Meta == nil || members(e.Meta, func(key, value []byte) bool {
		switch string(key) {
		case mcp.MetaKeyProtocolVersion:
			e.Revision = value
		case mcp.MetaKeyClientCapabilities:
			e.Caps = value
		case mcp.MetaKeyClientInfo:
			e.Info = value
		case "traceparent":
			e.Traceparent = value
		case "tracestate":
			e.Tracestate = value
		default:
			e.MetaOthers = true
		}
		return true
	})
}

// strict reports whether the envelope is a JSON-RPC 2.0 request with an id
// and no member but jsonrpc, id, method and params: what the lane and the
// tasks front answer (anything else is the go-sdk's to judge).
func (e *RPC) strict() bool {
	return e.OK && !e.Others && string(e.version) == `"2.0"` && len(e.ID) > 0
}
